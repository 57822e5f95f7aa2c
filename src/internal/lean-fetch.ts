import { nodeFetchUntouched } from "./node-fetch-untouched.js";
import { decodedBody } from "./decoded-body.js";
import { nextHop, redirectStatuses } from "./redirect-hop.js";
import { isUnlimitedAgent, undiciRequest, type UndiciResponseData } from "./undici-request.js";

/**
 * The fetch keelson's own SDK clients send through: the same request on the same transport as
 * Node's fetch (undici, keep-alive, the same 300 s limits unless the call lifts them), without
 * fetch's per-request machinery — about 120 µs less per request on a loopback server, which is more
 * than the rest of keelson costs. Anything it would not do exactly as fetch does goes to
 * `globalThis.fetch` instead: a patched fetch or a global dispatcher with options of its own, a
 * `Request`, a non-http(s) URL or one with credentials, a body other than text or bytes, a
 * dispatcher other than keelson's long-call agent, the hops after a redirect. What the SDK gets
 * back is a real `Response`; failures are fetch's (`TypeError: fetch failed` with the cause, the
 * signal's reason on an abort).
 */
export const leanFetch: typeof fetch = async (input, init) => {
  const url = typeof input === "string" ? input : input instanceof URL ? input.href : undefined;
  const dispatcher = (init as { dispatcher?: unknown } | undefined)?.dispatcher;
  if (
    url === undefined ||
    !nodeFetchUntouched() ||
    !sendable(init) ||
    (dispatcher !== undefined && !isUnlimitedAgent(dispatcher))
  ) {
    return globalThis.fetch(input, init);
  }
  const target = new URL(url);
  // fetch refuses credentials in a URL and a few methods (CONNECT, TRACE, TRACK): it says so itself.
  const method = normalizedMethod(init?.method);
  if (
    (target.protocol !== "http:" && target.protocol !== "https:") ||
    target.username !== "" ||
    target.password !== "" ||
    method === undefined
  ) {
    return globalThis.fetch(input, init);
  }
  const signal = init?.signal ?? undefined;
  let data: UndiciResponseData;
  try {
    data = await undiciRequest(
      {
        origin: target.origin,
        path: target.pathname + target.search,
        method,
        headers: requestHeaders(init?.headers),
        body: (init?.body as string | Uint8Array | null | undefined) ?? undefined,
        signal,
      },
      dispatcher !== undefined,
    );
  } catch (error) {
    throw signal?.aborted ? signal.reason : new TypeError("fetch failed", { cause: error });
  }
  if (redirectStatuses.has(data.statusCode) && typeof data.headers.location === "string") {
    void data.body.dump();
    // fetch follows the rest of the way, with its rules; this hop is already answered, so it is not sent again.
    const next = nextHop(target, data.statusCode, data.headers.location, init);
    const response = await globalThis.fetch(next.url, next.init);
    if (!response.redirected) Object.defineProperty(response, "redirected", { value: true });
    return response;
  }
  return toResponse(data, url, signal);
};

const standardMethods = new Set(["DELETE", "GET", "HEAD", "OPTIONS", "POST", "PUT"]);
const forbiddenMethods = new Set(["CONNECT", "TRACE", "TRACK"]);

/** The method as fetch sends it (the standard ones upper-cased, others as given); undefined for one fetch refuses. */
function normalizedMethod(method: string | undefined): string | undefined {
  if (method === undefined) return "GET";
  const upper = method.toUpperCase();
  if (forbiddenMethods.has(upper)) return undefined;
  return standardMethods.has(upper) ? upper : method;
}

/** A request whose body and options lean fetch sends as fetch would. */
function sendable(init: RequestInit | undefined): boolean {
  if (init === undefined) return true;
  const { body, redirect } = init;
  if (redirect !== undefined && redirect !== "follow") return false;
  return body === undefined || body === null || typeof body === "string" || body instanceof Uint8Array;
}

/**
 * Request headers as undici takes them, as name/value pairs after fetch's own Headers rules: values
 * stringified and stripped of leading and trailing whitespace (a key read from a file with its
 * newline), invalid names or values rejected with fetch's TypeError.
 */
function requestHeaders(headers: RequestInit["headers"]): string[] | undefined {
  if (headers === undefined) return undefined;
  const flat: string[] = [];
  for (const [name, value] of headers instanceof Headers ? headers : new Headers(headers)) flat.push(name, value);
  return flat;
}

const nullBodyStatuses = new Set([204, 205, 304]);

function toResponse(data: UndiciResponseData, url: string, signal: AbortSignal | undefined): Response {
  const { statusCode: status, headers, statusText } = data;
  let body: ReadableStream<Uint8Array> | null = null;
  if (nullBodyStatuses.has(status)) void data.body.dump();
  else body = decodedBody(data.body, headers["content-encoding"], signal);
  // The Response constructor takes 200-599 only; fetch hands over whatever status the server sent.
  const inRange = status >= 200 && status <= 599;
  const response = new Response(body, { status: inRange ? status : 200, statusText, headers: data.headerPairs });
  Object.defineProperty(response, "url", { value: url });
  if (!inRange) Object.defineProperties(response, { status: { value: status }, ok: { value: false } });
  return response;
}
