import { nodeFetchUntouched } from "./node-fetch-untouched.js";
import { decodedBody } from "./decoded-body.js";
import { lazyRequire } from "./lazy-require.js";
import { undiciRequest, type UndiciResponseData } from "./undici-request.js";

// Loaded on the first request: importing an adapter stays as light as importing its SDK.
const loadHTTP = lazyRequire<typeof import("node:http")>("node:http", "status texts");

/**
 * The fetch keelson's own SDK clients send through: the same request on the same transport as
 * Node's fetch (undici, keep-alive, the same 300 s limits unless the call lifts them), without
 * fetch's per-request machinery — about 120 µs less per request on a loopback server, which is more
 * than the rest of keelson costs. Anything it would not do exactly as fetch does goes to
 * `globalThis.fetch` instead: a patched fetch or a global dispatcher with options of its own, a
 * `Request` or a non-http(s) URL, a body other than text or bytes, a redirect. What the SDK gets
 * back is a real `Response`; failures are fetch's (`TypeError: fetch failed` with the cause, the
 * signal's reason on an abort).
 */
export const leanFetch: typeof fetch = async (input, init) => {
  const url = typeof input === "string" ? input : input instanceof URL ? input.href : undefined;
  if (url === undefined || !nodeFetchUntouched() || !sendable(init)) return globalThis.fetch(input, init);
  const target = new URL(url);
  if (target.protocol !== "http:" && target.protocol !== "https:") return globalThis.fetch(input, init);
  const signal = init?.signal ?? undefined;
  let data: UndiciResponseData;
  try {
    data = await undiciRequest({
      origin: target.origin,
      path: target.pathname + target.search,
      method: init?.method ?? "GET",
      headers: requestHeaders(init?.headers),
      body: (init?.body as string | Uint8Array | null | undefined) ?? undefined,
      signal,
      unlimited: (init as { dispatcher?: unknown } | undefined)?.dispatcher !== undefined,
    });
  } catch (error) {
    throw signal?.aborted ? signal.reason : new TypeError("fetch failed", { cause: error });
  }
  if (data.statusCode >= 300 && data.statusCode < 400 && data.headers.location !== undefined) {
    void data.body.dump();
    return globalThis.fetch(input, init); // fetch follows redirects, with its rules for method and body
  }
  return toResponse(data, url, signal);
};

/** A request whose body and options lean fetch sends as fetch would. */
function sendable(init: RequestInit | undefined): boolean {
  if (init === undefined) return true;
  const { body, redirect } = init;
  if (redirect !== undefined && redirect !== "follow") return false;
  return body === undefined || body === null || typeof body === "string" || body instanceof Uint8Array;
}

/** Request headers as undici takes them: a record as it is, anything else as name/value pairs. */
function requestHeaders(headers: RequestInit["headers"]): Record<string, string> | string[] | undefined {
  if (headers === undefined || (typeof headers === "object" && !Array.isArray(headers) && !(headers instanceof Headers))) {
    return headers as Record<string, string> | undefined;
  }
  const flat: string[] = [];
  for (const [name, value] of headers as Iterable<[string, string]>) flat.push(name, value);
  return flat;
}

const nullBodyStatuses = new Set([204, 205, 304]);

function toResponse(data: UndiciResponseData, url: string, signal: AbortSignal | undefined): Response {
  const { statusCode: status, headers } = data;
  const pairs: [string, string][] = [];
  for (const name in headers) {
    const value = headers[name];
    if (Array.isArray(value)) for (const item of value) pairs.push([name, item]);
    else if (value !== undefined) pairs.push([name, value]);
  }
  let body: ReadableStream<Uint8Array> | null = null;
  if (nullBodyStatuses.has(status)) void data.body.dump();
  else body = decodedBody(data.body, headers["content-encoding"], signal);
  const response = new Response(body, { status, statusText: loadHTTP().STATUS_CODES[status] ?? "", headers: pairs });
  Object.defineProperty(response, "url", { value: url });
  return response;
}
