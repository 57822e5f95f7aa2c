/** The statuses fetch follows. */
export const redirectStatuses = new Set([301, 302, 303, 307, 308]);
const requestBodyHeaders = ["content-encoding", "content-language", "content-location", "content-type"];

/** The request fetch would send after a redirect it follows (the Fetch standard's HTTP-redirect fetch, steps for method, body and headers). */
export function nextHop(
  current: URL,
  status: number,
  location: string,
  init: RequestInit | undefined,
): { url: string; init: RequestInit } {
  let next: URL;
  try {
    next = new URL(location, current);
  } catch (error) {
    throw new TypeError("fetch failed", { cause: error });
  }
  if (next.hash === "" && current.hash !== "") next.hash = current.hash;
  const method = (init?.method ?? "GET").toUpperCase();
  const headers = new Headers(init?.headers);
  let body = init?.body ?? null;
  let nextMethod = init?.method ?? "GET";
  if (
    ((status === 301 || status === 302) && method === "POST") ||
    (status === 303 && method !== "GET" && method !== "HEAD")
  ) {
    nextMethod = "GET";
    body = null;
    for (const name of requestBodyHeaders) headers.delete(name);
  }
  if (next.origin !== current.origin)
    for (const name of ["authorization", "proxy-authorization", "cookie", "host"]) headers.delete(name);
  return { url: next.href, init: { ...init, method: nextMethod, headers, body } };
}
