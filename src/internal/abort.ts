import { describeThrown } from "./describe-thrown.js";

/**
 * The signal of every call nothing can end early (no caller signal, no timeout, not a stream), for
 * adapters that accept it (ChatModel's `plainCallsShareInertSignal`). It never aborts, so a listener
 * on it would never run: it keeps none — added with addEventListener or as `onabort` — and an SDK
 * that adds one per request and never removes it leaks nothing. One shared signal spares each such
 * call an AbortController (~1.8 KB, and Node's set-up of a signal). Only `AbortSignal.any` still
 * holds on: Node 20 keeps a weak reference per use on the source signal and never drops it, which
 * is why adapters opt in.
 */
const inertSignal = new AbortController().signal;
Object.defineProperties(inertSignal, {
  addEventListener: { value: () => undefined },
  removeEventListener: { value: () => undefined },
  // Node's own onabort setter expects the listener it added to be there the second time.
  onabort: { get: () => null, set: () => undefined },
});

/** Signals of other calls nothing can end early: each call's own, for adapters that did not opt in. */
const unabortable = new WeakSet<AbortSignal>();

/**
 * Whether anything can abort this call's signal. An adapter may skip wiring an unabortable one to
 * its SDK (the openai SDK adds a listener per request and never removes it).
 */
export function isAbortable(signal: AbortSignal): boolean {
  return signal !== inertSignal && !unabortable.has(signal);
}

/**
 * The platform `AbortError` for an aborted signal: the signal's own reason when it is a
 * DOMException (AbortError, TimeoutError), else an AbortError carrying the reason as `cause`.
 */
export function abortError(signal: AbortSignal | undefined): Error {
  const reason: unknown = signal?.reason;
  if (reason instanceof DOMException) return reason;
  const error = new DOMException("This operation was aborted", "AbortError");
  if (reason !== undefined) Object.defineProperty(error, "cause", { value: reason });
  return error;
}

/** Throws the AbortError of an aborted signal. The inert signal is never read: `aborted` is a getter, which a plain call would otherwise pay for at every check. */
export function throwIfAborted(signal: AbortSignal | undefined): void {
  if (signal !== inertSignal && signal?.aborted) throw abortError(signal);
}

/** The error a call ends with: the platform AbortError when its signal aborted, else the error itself. */
export function callError(error: unknown, signal: AbortSignal | undefined): Error {
  if (signal?.aborted && (isAbortError(error) || !(error instanceof Error))) return abortError(signal);
  return error instanceof Error ? error : new Error(describeThrown(error));
}

/** An abort: the platform's AbortError or TimeoutError (adapters map their SDK's own to these). */
export function isAbortError(error: unknown): boolean {
  return error instanceof Error && (error.name === "AbortError" || error.name === "TimeoutError");
}

/** The longest wait one timer holds: past it Node fires after 1 ms (with a TimeoutOverflowWarning). */
export const maxTimerMs = 2 ** 31 - 1;

/**
 * Runs `callback` after `ms`, however long: a wait past a timer's range is chained, and an infinite
 * one never fires. Returns what clears it.
 */
function startTimer(callback: () => void, ms: number): () => void {
  let timer: ReturnType<typeof setTimeout> | undefined;
  const arm = (left: number) => {
    if (left === Infinity) return;
    timer = setTimeout(left > maxTimerMs ? () => arm(left - maxTimerMs) : callback, Math.min(left, maxTimerMs));
  };
  arm(ms);
  return () => clearTimeout(timer);
}

/** Waits `ms`, ending at once with AbortError when the signal aborts; never keeps the process alive after. */
export function delay(ms: number, signal: AbortSignal | undefined): Promise<void> {
  return new Promise((resolve, reject) => {
    if (signal?.aborted) return reject(abortError(signal));
    const onAbort = () => {
      clear();
      reject(abortError(signal));
    };
    const clear = startTimer(() => {
      signal?.removeEventListener("abort", onAbort);
      resolve();
    }, ms);
    signal?.addEventListener("abort", onAbort, { once: true });
  });
}

/** When each call signal with a timeout times out, on `performance.now()`'s clock. */
const deadlines = new WeakMap<AbortSignal, number>();

/** How long a call signal's timeout leaves, in milliseconds (Infinity without one). */
export function timeLeft(signal: AbortSignal): number {
  const deadline = deadlines.get(signal);
  return deadline === undefined ? Infinity : Math.max(0, deadline - performance.now());
}

/** How long Node's fetch waits for a response's headers, and between two of its body chunks (undici's 300 s). */
export const fetchPatienceMs = 300_000;

/**
 * Whether a call's timeout (`Infinity` included) leaves it more time than Node's fetch waits: its
 * requests need a transport without those limits. A call without a timeout is not one.
 */
export function outlastsFetch(signal: AbortSignal): boolean {
  return deadlines.has(signal) && timeLeft(signal) > fetchPatienceMs;
}

/** A call's own abort signal and the means to release what links it to the caller's. */
export interface CallSignal {
  signal: AbortSignal;
  /** Ends the call with an AbortError (a consumer that stopped reading, a listener's abort()). */
  abort(): void;
  /** Removes the listener on the caller's signal and clears the timeout. */
  dispose(): void;
}

const unabortableCall: CallSignal = { signal: inertSignal, abort: () => undefined, dispose: () => undefined };

/**
 * A fresh signal for one call that aborts when the caller's signal does or the timeout passes
 * (with a TimeoutError). Everything a request hangs on it (SDK listeners included) goes away with
 * the call, so a caller's long-lived signal never collects listeners, however many calls it serves.
 * A call nothing can end early gets a signal of its own that adapters may leave unwired, or — when
 * its adapter accepts it (`shareInert`) — the shared inert signal.
 */
export function callSignal(
  callerSignal: AbortSignal | undefined,
  timeoutMs: number | undefined,
  stoppable: boolean,
  shareInert = false,
): CallSignal {
  if (!callerSignal && timeoutMs === undefined && !stoppable) {
    // Nothing can end this call early: adapters may skip the SDK's signal plumbing (isAbortable).
    if (shareInert) return unabortableCall;
    const own = new AbortController();
    unabortable.add(own.signal);
    return { signal: own.signal, abort: () => undefined, dispose: () => undefined };
  }
  const controller = new AbortController();
  const onAbort = () => controller.abort(callerSignal?.reason);
  if (callerSignal?.aborted) onAbort();
  else callerSignal?.addEventListener("abort", onAbort, { once: true });
  // An infinite timeout is no bound; one past a timer's range is still kept (startTimer chains it).
  const bounded = timeoutMs !== undefined && timeoutMs !== Infinity;
  if (timeoutMs !== undefined) deadlines.set(controller.signal, performance.now() + timeoutMs);
  const clearTimer = bounded
    ? startTimer(
        () =>
          controller.abort(
            new DOMException(`The call took longer than its timeout of ${timeoutMs} ms`, "TimeoutError"),
          ),
        timeoutMs,
      )
    : undefined;
  return {
    signal: controller.signal,
    abort: () => controller.abort(),
    dispose: () => {
      callerSignal?.removeEventListener("abort", onAbort);
      clearTimer?.();
    },
  };
}

/**
 * A signal that aborts when either does (with that one's reason), for two short-lived signals —
 * one request's and one call's. Plain listeners: AbortSignal.any also keeps weak references and a
 * finalizer per signal, ~25 µs more per Ollama stream here. The listeners go away with the signals.
 */
export function eitherSignal(first: AbortSignal, second: AbortSignal): AbortSignal {
  if (first.aborted) return first;
  if (second.aborted) return second;
  const controller = new AbortController();
  const onFirst = () => controller.abort(first.reason);
  const onSecond = () => controller.abort(second.reason);
  first.addEventListener("abort", onFirst, { once: true });
  second.addEventListener("abort", onSecond, { once: true });
  return controller.signal;
}

/**
 * `promise`, or an AbortError as soon as `signal` aborts — for a request the SDK cannot cancel
 * (a caller's own client). The abandoned promise's later rejection is swallowed.
 */
export function settleOnAbort<T>(promise: Promise<T>, signal: AbortSignal): Promise<T> {
  if (!isAbortable(signal)) return promise;
  if (signal.aborted) {
    promise.catch(() => undefined);
    return Promise.reject(abortError(signal));
  }
  return new Promise<T>((resolve, reject) => {
    const onAbort = () => {
      promise.catch(() => undefined);
      reject(abortError(signal));
    };
    signal.addEventListener("abort", onAbort, { once: true });
    promise.then(
      (value) => {
        signal.removeEventListener("abort", onAbort);
        resolve(value);
      },
      (error: unknown) => {
        signal.removeEventListener("abort", onAbort);
        reject(error);
      },
    );
  });
}
