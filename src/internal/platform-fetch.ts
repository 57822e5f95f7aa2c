import { markPlatformFetch } from "./long-call-dispatcher.js";
import { RefusedRedirectError } from "./refused-redirect-error.js";

const redirectStatuses = new Set([301, 302, 303, 307, 308]);
const maxRedirects = 20;
/** Headers that carry a credential whoever set them: never sent on to another origin. */
const credentialHeaders = ["authorization", "proxy-authorization", "cookie", "api-key", "x-api-key"];
const bodyHeaders = ["content-encoding", "content-language", "content-location", "content-type", "content-length"];

/**
 * The fetch the SDK clients keelson builds send through: `globalThis.fetch`, read at each request
 * (a patched fetch, msw, a global dispatcher all apply), with redirects followed here so that two
 * rules hold that fetch leaves to its caller: a redirect is followed only to http(s) (never into a
 * `data:` answer), and the credential headers (`api-key`, `authorization`, … and `extraCredentials`,
 * the headers a model was configured with) never go to another origin. Everything else — the
 * connection, the status line, the body, the errors — is the platform's.
 */
export function platformFetch(extraCredentials: readonly string[] = []): typeof fetch {
  const dropped = [...credentialHeaders, ...extraCredentials.map((name) => name.toLowerCase())];
  return markPlatformFetch(async (input: string | URL | Request, init?: RequestInit): Promise<Response> => {
    // A Request or a caller's own redirect mode: fetch's rules, as asked.
    if (input instanceof Request || (init?.redirect !== undefined && init.redirect !== "follow"))
      return globalThis.fetch(input, init);
    // Parsed only for a redirect (fetch parses it anyway): 10k of an Ollama call's 491k instructions, 2 % (bench/instructions.ts).
    let url: string | URL = input;
    let request: RequestInit = { ...init, redirect: "manual" };
    for (let hops = 0; ; hops++) {
      const response = await globalThis.fetch(url, request);
      const location = redirectStatuses.has(response.status) ? response.headers.get("location") : null;
      if (location === null) return response;
      await response.body?.cancel().catch(() => undefined);
      url = new URL(url);
      const next = URL.canParse(location, url.href) ? new URL(location, url) : undefined;
      if (next === undefined || (next.protocol !== "http:" && next.protocol !== "https:"))
        throw refused(`a redirect to ${JSON.stringify(location.slice(0, 40))}, which is not an http(s) URL`);
      if (hops === maxRedirects) throw refused(`more than ${maxRedirects} redirects`);
      request = nextRequest(request, response.status, next.origin === url.origin ? [] : dropped);
      url = next;
    }
  });
}

/** The request after a redirect (the Fetch standard's method and body rules), without `dropped` headers. */
function nextRequest(request: RequestInit, status: number, dropped: readonly string[]): RequestInit {
  const headers = new Headers(request.headers);
  for (const name of dropped) headers.delete(name);
  const method = (request.method ?? "GET").toUpperCase();
  if (((status === 301 || status === 302) && method === "POST") || (status === 303 && method !== "HEAD")) {
    for (const name of bodyHeaders) headers.delete(name);
    return { ...request, method: method === "HEAD" ? "HEAD" : "GET", body: null, headers };
  }
  return { ...request, headers };
}

function refused(what: string): TypeError {
  return new TypeError("fetch failed", { cause: new RefusedRedirectError(what) });
}
