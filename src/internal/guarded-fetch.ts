import { capResponseBody } from "./cap-response-body.js";
import { checkStreamBody } from "./check-stream-body.js";
import { markPlatformFetch, sendsWithFetchLimits } from "./long-call-dispatcher.js";

/**
 * Marks a request whose answer must be an event stream: set in a Stainless SDK's per-request
 * `fetchOptions` (see sdkRequestOptions), which reach the client's fetch as they are. A symbol, so
 * no fetch sends it and no log shows it.
 */
export const expectsEventStream: unique symbol = Symbol("keelson.expectsEventStream");

/**
 * The fetch the clients keelson builds send through, over `fetch` (the platform fetch or a
 * caller's): every response body capped at `maxResponseBytes` (see capResponseBody), and a
 * request marked `expectsEventStream` refused when a 2xx answer is not an event stream (an HTML
 * page, which a retry would only fetch again). Marked as the platform fetch when `fetch` is one,
 * so a long call still gets its dispatcher.
 */
export function guardedFetch(fetch: typeof globalThis.fetch, maxResponseBytes: number): typeof globalThis.fetch {
  const guarded = async (input: string | URL | Request, init?: RequestInit): Promise<Response> => {
    const response = capResponseBody(await fetch(input, init), maxResponseBytes);
    if (init && (init as { [expectsEventStream]?: boolean })[expectsEventStream])
      await checkStreamBody(response, /event-stream/i);
    return response;
  };
  return sendsWithFetchLimits(fetch) ? markPlatformFetch(guarded) : guarded;
}
