import { outlastsFetch } from "./abort.js";
import { globalDispatcherIsPlain } from "./node-fetch-untouched.js";
import { unlimitedAgent } from "./undici-request.js";

/**
 * For a request of a call that may outlast Node's fetch (a `timeout` past 5 minutes, or `Infinity`):
 * an undici dispatcher with no headers or body timeout, so the call's own timeout and signal are
 * what end it (a non-streamed generation sends its headers only when it is done; a reasoning model
 * can be silent for minutes). undefined for every other request: they keep fetch's limits. undefined
 * too under a global dispatcher of the caller's (a proxy, a CA, a mock): every request goes through
 * it, with its own limits.
 */
export function longCallDispatcher(signal: AbortSignal): object | undefined {
  return outlastsFetch(signal) && globalDispatcherIsPlain() ? unlimitedAgent() : undefined;
}
