import { outlastsFetch } from "./abort.js";
import { leanFetch } from "./lean-fetch.js";
import { globalDispatcherIsPlain } from "./node-fetch-untouched.js";
import { unlimitedAgent } from "./undici-request.js";

/**
 * For a request of a call that may outlast Node's fetch (a `timeout` past 5 minutes, or `Infinity`):
 * an undici dispatcher with no headers or body timeout, so the call's own timeout and signal are
 * what end it (a non-streamed generation sends its headers only when it is done; a reasoning model
 * can be silent for minutes). undefined for every other request: they keep fetch's limits. undefined
 * too under a global dispatcher of the caller's (a proxy, a CA, a mock): every request goes through
 * it, with its own limits; and for a request through a fetch other than keelson's or Node's (its owner's).
 */
export function longCallDispatcher(signal: AbortSignal, fetch: unknown): object | undefined {
  return sendsWithFetchLimits(fetch) && outlastsFetch(signal) && globalDispatcherIsPlain()
    ? unlimitedAgent()
    : undefined;
}

/** Whether requests through `fetch` go on undici with Node's fetch's 300 s limits: keelson's lean fetch or Node's own. */
export function sendsWithFetchLimits(fetch: unknown): boolean {
  return fetch === leanFetch || fetch === globalThis.fetch;
}
