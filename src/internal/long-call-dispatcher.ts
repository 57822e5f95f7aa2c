import { lazyRequire } from "./lazy-require.js";
import { outlastsFetch } from "./abort.js";

const loadUndici = lazyRequire<{ Agent: new (options: Record<string, unknown>) => object }>(
  "undici",
  "calls whose timeout is longer than Node's fetch waits (5 minutes)",
);
let dispatcher: object | undefined;

/**
 * For a request of a call that may outlast Node's fetch (a `timeout` past 5 minutes, or `Infinity`):
 * an undici dispatcher with no headers or body timeout, so the call's own timeout and signal are
 * what end it (a non-streamed generation sends its headers only when it is done; a reasoning model
 * can be silent for minutes). undefined for every other request: they keep Node's own transport,
 * ~6 % faster per request than a second copy of undici.
 */
export function longCallDispatcher(signal: AbortSignal): object | undefined {
  if (!outlastsFetch(signal)) return undefined;
  return (dispatcher ??= new (loadUndici().Agent)({ headersTimeout: 0, bodyTimeout: 0 }));
}
