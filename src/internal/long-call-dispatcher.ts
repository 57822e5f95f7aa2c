import { outlastsFetch } from "./abort.js";
import { unlimitedAgent } from "./undici-request.js";

/**
 * For a request of a call that may outlast Node's fetch (a `timeout` past 5 minutes, or `Infinity`):
 * an undici dispatcher with no headers or body timeout, so the call's own timeout and signal are
 * what end it (a non-streamed generation sends its headers only when it is done; a reasoning model
 * can be silent for minutes). undefined for every other request: they keep fetch's limits.
 */
export function longCallDispatcher(signal: AbortSignal): object | undefined {
  return outlastsFetch(signal) ? unlimitedAgent() : undefined;
}
