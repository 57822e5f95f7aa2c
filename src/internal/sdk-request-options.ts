import { isAbortable, maxTimerMs, outlastsFetch, timeLeft } from "./abort.js";
import { expectsEventStream } from "./guarded-fetch.js";
import { longCallDispatcher } from "./long-call-dispatcher.js";

/** What the openai and @anthropic-ai/sdk clients take per request (both are Stainless SDKs). */
export interface SDKRequestOptions {
  maxRetries?: number;
  signal?: AbortSignal;
  timeout?: number;
  fetchOptions?: { dispatcher?: object; [expectsEventStream]?: true };
}

/** The client fields the options depend on. */
export interface SDKClientLike {
  maxRetries?: number;
  /** The fetch the client sends through: a client's own fetch is its owner's. */
  fetch?: unknown;
}

/**
 * The per-request options of a Stainless SDK client (openai, @anthropic-ai/sdk): its retries off
 * (keelson's base class is the one retry owner, and a caller's client may keep them on); a signal
 * only when the call can abort (the SDK never removes its listener); for a call with a `timeout`,
 * the SDK's own timeout (10 minutes) moved past it, so that the call's is the one that ends it; and
 * for a call that outlasts Node's fetch (5 minutes for headers, 5 between chunks), a dispatcher
 * without those limits, on the platform fetch only. A `stream` request is marked for the fetch
 * keelson builds (see guardedFetch), which refuses a 2xx answer that is not an event stream.
 */
export function sdkRequestOptions(client: SDKClientLike, signal: AbortSignal, stream = false): SDKRequestOptions {
  const options: SDKRequestOptions = client.maxRetries === 0 ? {} : { maxRetries: 0 };
  if (stream) options.fetchOptions = { [expectsEventStream]: true };
  if (!isAbortable(signal)) return options;
  options.signal = signal;
  const left = timeLeft(signal);
  if (left === Infinity && !outlastsFetch(signal)) return options;
  options.timeout = Math.min(Math.ceil(left) + 1000, maxTimerMs);
  const dispatcher = longCallDispatcher(signal, client.fetch);
  if (dispatcher) options.fetchOptions = { ...options.fetchOptions, dispatcher };
  return options;
}
