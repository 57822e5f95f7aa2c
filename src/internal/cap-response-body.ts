import { ResponseTooLargeError } from "./response-too-large-error.js";

/**
 * The response with a body that ends in a `ResponseTooLargeError` once more than `limit` bytes
 * were read from it, the rest never read (the connection is cancelled). Bytes are counted as
 * fetch hands them out, decoded: a small gzip body that inflates to gigabytes stops at the cap.
 * A body whose length is known and within the cap (a `content-length`, no `content-encoding`)
 * comes back as it is: the HTTP framing bounds it.
 */
export function capResponseBody(response: Response, limit: number): Response {
  const body = response.body;
  if (body === null || limit === Infinity || withinCap(response.headers, limit)) return response;
  const reader = body.getReader();
  let bytesRead = 0;
  const capped = new ReadableStream<Uint8Array>({
    async pull(controller) {
      const { done, value } = await reader.read();
      if (done) return controller.close();
      bytesRead += value.byteLength;
      if (bytesRead <= limit) return controller.enqueue(value);
      const error = new ResponseTooLargeError(limit, bytesRead);
      controller.error(error);
      await reader.cancel(error).catch(() => undefined);
    },
    cancel: (reason) => reader.cancel(reason),
  });
  const wrapped = new Response(capped, {
    status: response.status,
    statusText: response.statusText,
    headers: response.headers,
  });
  // What a Response built here cannot take in its constructor, read by SDKs in their messages.
  Object.defineProperty(wrapped, "url", { value: response.url });
  Object.defineProperty(wrapped, "redirected", { value: response.redirected });
  return wrapped;
}

function withinCap(headers: Headers, limit: number): boolean {
  const encoding = headers.get("content-encoding");
  if (encoding !== null && encoding.trim().toLowerCase() !== "identity") return false;
  const length = headers.get("content-length");
  return length !== null && /^\d+$/.test(length.trim()) && Number(length) <= limit;
}
