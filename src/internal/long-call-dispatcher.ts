import { outlastsFetch } from "./abort.js";
import { createRequire } from "node:module";

/** What of undici's public API a long call needs: the process's dispatcher, and composing it. */
interface Dispatcher {
  dispatch(options: object, handler: object): boolean;
  compose(interceptor: (dispatch: Dispatcher["dispatch"]) => Dispatcher["dispatch"]): Dispatcher;
}

const requireModule = createRequire(import.meta.url);
// undici (a dependency) loads only for a call that outlasts Node's fetch: every other request never reads it.
let undici: { getGlobalDispatcher(): Dispatcher } | undefined;
const loadUndici = () => (undici ??= requireModule("undici") as { getGlobalDispatcher(): Dispatcher });

let composedFor: Dispatcher | undefined;
let composed: Dispatcher | undefined;

/**
 * For a request of a call that may outlast Node's fetch (a `timeout` past 5 minutes, or `Infinity`):
 * the process's own dispatcher (undici's `getGlobalDispatcher()`: Node's agent, or a caller's proxy,
 * CA or MockAgent) composed with an interceptor that sends each request with no headers or body
 * timeout (undici's per-request `headersTimeout: 0, bodyTimeout: 0`), so the call's own timeout and
 * signal are what end it. undefined for every other request: they keep fetch's limits, and undici
 * is never loaded for them. Only for the platform fetch: another fetch is its owner's.
 */
export function longCallDispatcher(signal: AbortSignal, fetch: unknown): object | undefined {
  if (!outlastsFetch(signal) || !sendsWithFetchLimits(fetch)) return undefined;
  const base = loadUndici().getGlobalDispatcher();
  if (base !== composedFor) {
    composedFor = base;
    composed = base.compose(
      (dispatch) => (options, handler) => dispatch({ ...options, headersTimeout: 0, bodyTimeout: 0 }, handler),
    );
  }
  return composed;
}

/** Whether requests through `fetch` go on Node's fetch, with its 300 s limits: the platform's own, or keelson's wrapper of it. */
export function sendsWithFetchLimits(fetch: unknown): boolean {
  return (
    fetch === undefined || fetch === globalThis.fetch || (typeof fetch === "function" && platformFetches.has(fetch))
  );
}

const platformFetches = new WeakSet<object>();

/** Marks a fetch keelson built over `globalThis.fetch` (it sends with Node's fetch's limits). */
export function markPlatformFetch<T extends object>(fetch: T): T {
  platformFetches.add(fetch);
  return fetch;
}
