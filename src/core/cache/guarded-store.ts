import { abortError, maxTimerMs } from "../../internal/abort.js";
import { describeThrown } from "../../internal/describe-thrown.js";
import type { ChatModelCache } from "./chat-model-cache.js";

/** The store operations a warning is said once for, per outage. */
type StoreOperation = "read" | "write" | "delete";

/** How much of what a store's error said goes into a warning. */
const maxStoreTextLength = 300;

/**
 * A cache store as calls use it, so that its failure or slowness never delays or fails a call:
 * a read is bounded (past `timeoutMs` it is a miss), a write and a delete are never waited for.
 * Whatever the store does — rejects, throws synchronously, hangs, resolves late — ends in a
 * `warning` (through `warn`), never in an error or an unhandled rejection. A warning is said once
 * per kind of operation and outage: after one, that kind warns again only once it has succeeded.
 */
export class GuardedStore {
  #failing = new Set<StoreOperation>();
  #store: ChatModelCache | undefined;

  /**
   * The stored value, or undefined for a miss: a `get()` that rejects, throws or has not answered
   * within `timeoutMs` is one. The call's signal stops the wait at once (its AbortError).
   */
  read(store: ChatModelCache, key: string, timeoutMs: number, signal: AbortSignal, warn: Warn): Promise<unknown> {
    this.#use(store);
    return new Promise((resolve, reject) => {
      if (signal.aborted) return reject(abortError(signal));
      let done = false;
      const end = () => {
        done = true;
        clearTimeout(timer);
        signal.removeEventListener("abort", onAbort);
      };
      const onAbort = () => {
        if (done) return;
        end();
        reject(abortError(signal));
      };
      const timer =
        timeoutMs === Infinity
          ? undefined
          : setTimeout(() => {
              if (done) return;
              end();
              this.#failed("read", `cache read did not answer within ${timeoutMs} ms, calling the provider`, warn);
              resolve(undefined);
            }, timeoutMs);
      signal.addEventListener("abort", onAbort, { once: true });
      settle(() => store.get(key)).then(
        (value) => {
          if (done) return;
          end();
          this.#succeeded("read");
          resolve(value);
        },
        (error: unknown) => {
          if (done) return;
          end();
          this.#failed("read", `cache read failed, calling the provider: ${storeText(error)}`, warn);
          resolve(undefined);
        },
      );
    });
  }

  /**
   * Starts a write and returns at once. One that fails is reported; one still unsettled after
   * `timeoutMs` is reported too (and kept only if the store ever finishes it).
   */
  write(store: ChatModelCache, key: string, value: unknown, ttlMs: number | undefined, timeoutMs: number, warn: Warn) {
    this.#use(store);
    let settled = false;
    const timer =
      timeoutMs === Infinity
        ? undefined
        : setTimeout(() => {
            if (settled) return;
            this.#failed(
              "write",
              `cache write did not settle within ${timeoutMs} ms: the answer was returned, and is kept only if the store finishes the write`,
              warn,
            );
          }, timeoutMs);
    // Only a warning waits on it: it never keeps the process alive.
    timer?.unref();
    settle(() => store.set(key, value, ttlMs)).then(
      () => {
        settled = true;
        clearTimeout(timer);
        this.#succeeded("write");
      },
      (error: unknown) => {
        settled = true;
        clearTimeout(timer);
        this.#failed("write", `cache write failed, the answer was returned but not kept: ${storeText(error)}`, warn);
      },
    );
  }

  /** Starts a delete (of an entry that cannot be served) and returns at once; a failure is reported. */
  remove(store: ChatModelCache, key: string, warn: Warn): void {
    this.#use(store);
    settle(() => store.delete(key)).then(
      () => this.#succeeded("delete"),
      (error: unknown) => this.#failed("delete", `cache delete failed: ${storeText(error)}`, warn),
    );
  }

  /** A model given another store starts afresh: the old one's outage says nothing of the new one. */
  #use(store: ChatModelCache): void {
    if (store === this.#store) return;
    this.#store = store;
    this.#failing = new Set();
  }

  #succeeded(operation: StoreOperation): void {
    this.#failing.delete(operation);
  }

  #failed(operation: StoreOperation, message: string, warn: Warn): void {
    if (this.#failing.has(operation)) return;
    this.#failing.add(operation);
    try {
      warn(message);
    } catch {
      // A warning that cannot be delivered leaves the call as it is.
    }
  }
}

type Warn = (message: string) => void;

/** What `operation` gives, as a promise: a synchronous throw becomes its rejection. */
function settle(operation: () => unknown): Promise<unknown> {
  try {
    return Promise.resolve(operation());
  } catch (error) {
    return Promise.reject(error);
  }
}

/**
 * What a store's error said, fit for an event: whatever was thrown, as text, a URL's user and
 * password cut out (a Redis client's error may name its `redis://user:password@host`), and cut short.
 */
function storeText(error: unknown): string {
  const text = describeThrown(error);
  // Only the start is read (a window past the cut, so a URL across it is cut out whole): the search stays linear however long the text.
  const start = text
    .slice(0, maxStoreTextLength + 1_000)
    .replace(/([a-z][a-z0-9+.-]{0,31}:\/\/)[^\s/@]*@/gi, "$1[redacted]@");
  const more = text.length - Math.min(text.length, maxStoreTextLength + 1_000);
  return start.length <= maxStoreTextLength && more === 0
    ? start
    : `${start.slice(0, maxStoreTextLength)}… (${start.length - maxStoreTextLength + more} more characters)`;
}

/** The `cacheTimeoutMs` option, checked: a positive number of milliseconds a timer can hold, or Infinity. */
export function checkCacheTimeout(timeoutMs: number): number {
  if (timeoutMs === Infinity || (typeof timeoutMs === "number" && timeoutMs > 0 && timeoutMs <= maxTimerMs))
    return timeoutMs;
  throw new TypeError(
    `cacheTimeoutMs must be a positive number of milliseconds (at most ${maxTimerMs}) or Infinity, got ${String(timeoutMs)}.`,
  );
}
