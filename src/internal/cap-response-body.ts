import { ResponseTooLargeError } from "./response-too-large-error.js";

const utf8 = new TextDecoder();

/**
 * The response with a body that ends in a `ResponseTooLargeError` once more than `limit` bytes
 * were read from it, the rest never read (the connection is cancelled). Bytes are counted as
 * fetch hands them out, decoded: a small gzip body that inflates to gigabytes stops at the cap.
 * A body whose length is known and within the cap (a `content-length`, no `content-encoding`)
 * comes back as it is: the HTTP framing bounds it.
 *
 * The same Response comes back, its body's readers replaced by capped ones (`json()`, `text()`,
 * `arrayBuffer()`, `blob()`, `formData()`, `bytes()`, `clone()`, and `body`, a capped stream made
 * when first asked for). Building a second Response and ReadableStream per request, as this did
 * before, cost 185k instructions per Ollama call (675k → 490k; the raw SDK's 350k) and 165k per
 * OpenAI call (1205k → 1040k; raw 905k): `npm run bench:instructions`, on chunked bodies.
 */
export function capResponseBody(response: Response, limit: number): Response {
  const { bodyOf } = platform();
  if (bodyOf.call(response) === null || limit === Infinity || withinCap(response.headers, limit)) return response;
  (response as Capped)[cap] = { limit, read: false };
  // One prototype swap: defining the readers as own properties of each response cost 31k instructions more.
  return Object.setPrototypeOf(response, CappedBody.prototype) as Response;
}

interface PlatformResponse {
  bodyOf: (this: Response) => ReadableStream<Uint8Array> | null;
  bodyUsedOf: (this: Response) => boolean;
  cloneOf: (this: Response) => Response;
}
let platformResponse: PlatformResponse | undefined;

/**
 * fetch's own Response readers, read at the first cap, not at import: Node loads its fetch (undici)
 * when `Response` is first touched, ~20 ms that a process which never calls a provider need not pay
 * (`npm run bench`, ollama import + construct).
 */
function platform(): PlatformResponse {
  if (platformResponse) return platformResponse;
  const proto = Response.prototype;
  Object.setPrototypeOf(CappedBody.prototype, proto);
  return (platformResponse = {
    bodyOf: Object.getOwnPropertyDescriptor(proto, "body")!.get as PlatformResponse["bodyOf"],
    bodyUsedOf: Object.getOwnPropertyDescriptor(proto, "bodyUsed")!.get as PlatformResponse["bodyUsedOf"],
    cloneOf: proto.clone,
  });
}

const cap = Symbol("keelson.cap");
type Capped = Response & { [cap]: Cap };

interface Cap {
  readonly limit: number;
  /** The capped stream, once `body` handed it out (an SDK may only hold it: @anthropic-ai/sdk does, for its abort bookkeeping). */
  stream?: ReadableStream<Uint8Array>;
  /** Whether a reader took the body: it is read once, as fetch allows. */
  read: boolean;
}

/**
 * What a capped response reads with. Never constructed: fetch's own responses take its prototype
 * (Response.prototype below it, see capResponseBody). The body is read from fetch's own stream
 * (Response.prototype's getter, read at each use: clone() gives a response a new one), through the
 * capped stream once that was handed out.
 */
class CappedBody {
  get body(): ReadableStream<Uint8Array> {
    const response = this as unknown as Capped;
    const state = response[cap];
    return (state.stream ??= cappedStream(platform().bodyOf.call(response)!, state.limit));
  }

  bytes(this: Capped): Promise<Uint8Array> {
    return readBody(this);
  }

  async arrayBuffer(this: Capped): Promise<ArrayBuffer> {
    return toArrayBuffer(await readBody(this));
  }

  async text(this: Capped): Promise<string> {
    return utf8.decode(await readBody(this));
  }

  async json(this: Capped): Promise<unknown> {
    return JSON.parse(utf8.decode(await readBody(this))) as unknown;
  }

  async blob(this: Capped): Promise<Blob> {
    return new Blob([await readBody(this)], { type: this.headers.get("content-type") ?? "" });
  }

  /** FormData parsing stays the platform's, over the capped bytes. */
  async formData(this: Capped): Promise<FormData> {
    return new Response(await readBody(this), { headers: this.headers }).formData();
  }

  clone(this: Capped): Response {
    return capResponseBody(platform().cloneOf.call(this), this[cap].limit);
  }
}

/** The whole body, once, capped. */
async function readBody(response: Capped): Promise<Uint8Array> {
  const state = response[cap];
  const { bodyOf, bodyUsedOf } = platform();
  if (state.read || (!state.stream && bodyUsedOf.call(response)))
    throw new TypeError("Body is unusable: the response body was already read");
  state.read = true;
  return state.stream ? readAll(state.stream, Infinity) : readAll(bodyOf.call(response)!, state.limit);
}

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
