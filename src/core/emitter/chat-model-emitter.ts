import type { EventEmitter as EventEmitterClass } from "eventemitter3";
import { describeThrown } from "../../internal/describe-thrown.js";
import { lazyRequire } from "../loading/lazy-require.js";
import type { ChatModelEvents } from "../events.js";

// Required rather than imported: from ESM, importing this CommonJS package costs several times
// more than requiring it. It is the same module object either way (its ESM entry wraps this one).
const loadEventEmitter = lazyRequire<typeof import("eventemitter3")>("eventemitter3", "keelson's event emitter");

/**
 * ChatModelEmitter's base: eventemitter3's EventEmitter, loaded and linked in (prototype and
 * statics) when the first emitter is made, so that importing keelson or building a model nobody
 * listens to never loads it (~1.2 ms of a cold start). eventemitter3's constructor is a plain
 * function, called here on the new emitter as `super()` would.
 */
function LazyEventEmitter(this: object): void {
  const { EventEmitter } = loadEventEmitter();
  if (Object.getPrototypeOf(LazyEventEmitter.prototype) !== EventEmitter.prototype) {
    Object.setPrototypeOf(LazyEventEmitter.prototype, EventEmitter.prototype);
    Object.setPrototypeOf(LazyEventEmitter, EventEmitter);
  }
  EventEmitter.call(this);
}
const EventEmitter = LazyEventEmitter as unknown as typeof import("eventemitter3").EventEmitter;

type Listener = (...args: any[]) => unknown;
type EventName = EventEmitterClass.EventNames<ChatModelEvents>;
type EventListener<T extends EventName> = EventEmitterClass.EventListener<ChatModelEvents, T>;

/** Per keelson event, whether a listener is on. */
export type Listening = Readonly<Record<keyof ChatModelEvents, boolean>>;

const eventNames: readonly (keyof ChatModelEvents)[] = [
  "start",
  "newToken",
  "retry",
  "repair",
  "fallback",
  "cacheHit",
  "warning",
  "success",
  "error",
  "finish",
];

/**
 * The model's event emitter. Each listener runs guarded: one that throws (or rejects) is reported
 * with `process.emitWarning` and never breaks the call or keeps other listeners from running.
 */
export class ChatModelEmitter extends EventEmitter<ChatModelEvents> {
  /** Per event, each listener's guarded wrapper (one listener on two events reports each by its own name). */
  readonly #guarded = new Map<string | symbol, WeakMap<Listener, Listener>>();
  /** Whether a listener is on `event`: a call asks before it builds an event's payload. */
  listens(event: keyof ChatModelEvents): boolean {
    return this.listenerCount(event) > 0;
  }

  /** Per event, whether a listener is on it now. */
  get listening(): Listening {
    return countListeners(this);
  }

  #guard(event: string | symbol, listener: Listener): Listener {
    let byListener = this.#guarded.get(event);
    if (!byListener) this.#guarded.set(event, (byListener = new WeakMap()));
    let guarded = byListener.get(listener);
    if (!guarded) {
      // Every keelson event has one payload: passed on as it is, with no array of arguments per call.
      guarded = function (this: unknown, payload: unknown) {
        try {
          const result = listener.call(this, payload) as { then?: unknown } | undefined;
          // A thenable is handed its rejection handler only: `then` may be a getter, or throw, or never call back.
          if (result !== null && (typeof result === "object" || typeof result === "function")) {
            const then = result.then;
            if (typeof then === "function")
              then.call(result, undefined, (error: unknown) => reportListenerError(event, error));
          }
        } catch (error) {
          reportListenerError(event, error);
        }
      };
      byListener.set(listener, guarded);
    }
    return guarded;
  }

  override on<T extends EventName>(event: T, listener: EventListener<T>, context?: unknown): this {
    super.on(event, this.#guard(event, listener as Listener) as EventListener<T>, context);
    return this;
  }

  override addListener<T extends EventName>(event: T, listener: EventListener<T>, context?: unknown): this {
    return this.on(event, listener, context);
  }

  override once<T extends EventName>(event: T, listener: EventListener<T>, context?: unknown): this {
    super.once(event, this.#guard(event, listener as Listener) as EventListener<T>, context);
    return this;
  }

  override off<T extends EventName>(event: T, listener?: EventListener<T>, context?: unknown, once?: boolean): this {
    const guarded = listener && (this.#guarded.get(event)?.get(listener as Listener) ?? listener);
    super.off(event, guarded as EventListener<T> | undefined, context, once);
    return this;
  }

  override removeListener<T extends EventName>(
    event: T,
    listener?: EventListener<T>,
    context?: unknown,
    once?: boolean,
  ): this {
    return this.off(event, listener, context, once);
  }
}

function countListeners(emitter: EventEmitterClass<ChatModelEvents>): Listening {
  const listening = {} as Record<keyof ChatModelEvents, boolean>;
  for (const event of eventNames) listening[event] = emitter.listenerCount(event) > 0;
  return listening;
}

function reportListenerError(event: string | symbol, error: unknown): void {
  try {
    process.emitWarning(`A keelson '${String(event)}' listener threw: ${describeThrown(error)}`, {
      code: "KEELSON_LISTENER_ERROR",
    });
  } catch {
    // Reporting must not become the failure it reports (a `process.emitWarning` replaced by one that throws).
  }
}

/** What a call reads of a model's events: the emitter once someone made it, `noListeners` until then. */
export type EventSink = Pick<ChatModelEmitter, "listens" | "emit">;

/** The events of a model whose emitter nobody has asked for: no listener on any. */
export const noListeners: EventSink = { listens: () => false, emit: () => false };
