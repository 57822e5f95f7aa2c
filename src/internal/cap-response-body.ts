import { ResponseTooLargeError } from "./response-too-large-error.js";

const bodyOf = Object.getOwnPropertyDescriptor(Response.prototype, "body")!.get as (
  this: Response,
) => ReadableStream<Uint8Array> | null;
const bodyUsedOf = Object.getOwnPropertyDescriptor(Response.prototype, "bodyUsed")!.get as (this: Response) => boolean;
const cloneOf = Response.prototype.clone;
const utf8 = new TextDecoder();

/**
 * The response with a body that ends in a `ResponseTooLargeError` once more than `limit` bytes
 * were read from it, the rest never read (the connection is cancelled). Bytes are counted as
 * fetch hands them out, decoded: a small gzip body that inflates to gigabytes stops at the cap.
 * A body whose length is known and within the cap (a `content-length`, no `content-encoding`)
 * comes back as it is: the HTTP framing bounds it.
 *
 * The same Response comes back, its body's readers replaced by capped ones (own properties:
 * `json()`, `text()`, `arrayBuffer()`, `blob()`, `formData()`, `bytes()`, `clone()`, and `body`, a
 * capped stream made when first read). Building a second Response and ReadableStream per request,
 * as this did before, cost 155k instructions per Ollama call (675k → 521k, the raw SDK's 350k) and 135k
 * per OpenAI call (1205k → 1071k, raw 905k): `npm run bench:instructions`, on chunked bodies.
 */
export function capResponseBody(response: Response, limit: number): Response {
  if (bodyOf.call(response) === null || limit === Infinity || withinCap(response.headers, limit)) return response;
  // Read when needed: clone() gives the response a new body stream (a branch of the old one's tee).
  const source = () => bodyOf.call(response)!;
  let capped: ReadableStream<Uint8Array> | undefined;
  let read = false;
  // The whole body, capped: through the capped stream once it was handed out (an SDK may only hold
  // it, as @anthropic-ai/sdk does for its abort bookkeeping), else read here; once, as fetch allows.
  const bytes = async () => {
    if (read || (!capped && bodyUsedOf.call(response)))
      throw new TypeError("Body is unusable: the response body was already read");
    read = true;
    return capped ? readAll(capped, Infinity) : readAll(source(), limit);
  };
  const text = async () => utf8.decode(await bytes());
  return Object.defineProperties(response, {
    body: { get: () => (capped ??= cappedStream(source(), limit)), configurable: true },
    arrayBuffer: method(async () => toArrayBuffer(await bytes())),
    bytes: method(bytes),
    text: method(text),
    json: method(async () => JSON.parse(await text()) as unknown),
    blob: method(async () => new Blob([await bytes()], { type: response.headers.get("content-type") ?? "" })),
    // FormData parsing stays the platform's, over the capped bytes.
    formData: method(async () => new Response(await bytes(), { headers: response.headers }).formData()),
    clone: method(() => capResponseBody(cloneOf.call(response), limit)),
  });
}

const method = (value: unknown): PropertyDescriptor => ({ value, configurable: true, writable: true });

/** Every byte of `stream`, or a `ResponseTooLargeError` (the rest cancelled) once more than `limit` came. */
async function readAll(stream: ReadableStream<Uint8Array>, limit: number): Promise<Uint8Array> {
  const reader = stream.getReader();
  const chunks: Uint8Array[] = [];
  let bytesRead = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    bytesRead += value.byteLength;
    if (bytesRead > limit) throw tooLarge(reader, limit, bytesRead);
    chunks.push(value);
  }
  reader.releaseLock();
  return chunks.length === 1 ? chunks[0]! : concat(chunks, bytesRead);
}

/**
 * `source` as a stream that errors with a `ResponseTooLargeError` past `limit`. It reads nothing until it
 * is read (no high-water mark): holding it, as an SDK may, leaves the body for `json()` and the others.
 */
function cappedStream(source: ReadableStream<Uint8Array>, limit: number): ReadableStream<Uint8Array> {
  const reader = source.getReader();
  let bytesRead = 0;
  return new ReadableStream<Uint8Array>(
    {
      async pull(controller) {
        const { done, value } = await reader.read();
        if (done) return controller.close();
        bytesRead += value.byteLength;
        if (bytesRead <= limit) return controller.enqueue(value);
        controller.error(tooLarge(reader, limit, bytesRead));
      },
      cancel: (reason) => reader.cancel(reason),
    },
    { highWaterMark: 0 },
  );
}

/** The cap's error, the rest of the body cancelled (not awaited: a tee's branch settles its cancel only with the other's). */
function tooLarge(
  reader: ReadableStreamDefaultReader<Uint8Array>,
  limit: number,
  bytesRead: number,
): ResponseTooLargeError {
  const error = new ResponseTooLargeError(limit, bytesRead);
  reader.cancel(error).catch(() => undefined);
  return error;
}

function concat(chunks: readonly Uint8Array[], length: number): Uint8Array {
  const whole = new Uint8Array(length);
  let offset = 0;
  for (const chunk of chunks) {
    whole.set(chunk, offset);
    offset += chunk.byteLength;
  }
  return whole;
}

function toArrayBuffer(bytes: Uint8Array): ArrayBuffer {
  const { buffer, byteOffset, byteLength } = bytes;
  return byteOffset === 0 && byteLength === buffer.byteLength && buffer instanceof ArrayBuffer
    ? buffer
    : (buffer.slice(byteOffset, byteOffset + byteLength) as ArrayBuffer);
}

function withinCap(headers: Headers, limit: number): boolean {
  const encoding = headers.get("content-encoding");
  if (encoding !== null && encoding.trim().toLowerCase() !== "identity") return false;
  const length = headers.get("content-length");
  return length !== null && /^\d+$/.test(length.trim()) && Number(length) <= limit;
}
