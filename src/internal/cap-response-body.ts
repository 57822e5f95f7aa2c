import { ResponseTooLargeError } from "./response-too-large-error.js";

const utf8 = new TextDecoder();

/**
 * The response with a body that ends in a `ResponseTooLargeError` once more than `limit` bytes
 * were read from it, the rest never read (the connection is cancelled). Bytes are counted as
 * fetch hands them out, decoded: a small gzip body that inflates to gigabytes stops at the cap.
 * A body whose length is known and within the cap (a `content-length`, no `content-encoding`)
 * comes back as it is: the HTTP framing bounds it.
 *
 * The same Response comes back, its readers replaced by capped ones (`json()`, `text()`,
 * `arrayBuffer()`, `blob()`, `formData()`, `bytes()`, `clone()`), and its `body` fetch's own stream
 * whose every way of being read counts (a reader's `read()`, `for await`, `values()`, `pipeTo()`,
 * `pipeThrough()`, `tee()`). Building a second Response and ReadableStream per request, as this did
 * before, cost 185k instructions per Ollama call (675k → 490k; the raw SDK's 350k) and 165k per
 * OpenAI call (1205k → 1040k; raw 905k); a second ReadableStream for `body`, 149k per Anthropic
 * call on the real path (2262k → 2113k: its SDK holds the body before it calls `json()`), 198k per
 * OpenAI stream (8179k → 7981k) and 63k per Ollama stream (3444k → 3381k). `npm run
 * bench:instructions`, on chunked bodies (docs/performance.md).
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
  Object.setPrototypeOf(CountedStream.prototype, ReadableStream.prototype);
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
  /** Whether a reader of the response took the body: it is read once, as fetch allows. */
  read: boolean;
}

/**
 * What a capped response reads with. Never constructed: fetch's own responses take its prototype
 * (Response.prototype below it, see capResponseBody). The body is fetch's own stream (the
 * Response.prototype getter, read at each use: clone() gives a response a new one), counted.
 */
class CappedBody {
  get body(): ReadableStream<Uint8Array> {
    const response = this as unknown as Capped;
    return counted(platform().bodyOf.call(response)!, response[cap].limit);
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

/** The whole body, once, capped (a body a reader of `body` took from is disturbed: refused, as fetch does). */
async function readBody(response: Capped): Promise<Uint8Array> {
  const state = response[cap];
  const { bodyOf, bodyUsedOf } = platform();
  if (state.read || bodyUsedOf.call(response))
    throw new TypeError("Body is unusable: the response body was already read");
  state.read = true;
  // The platform's own reader: the body's counted one (when `body` was handed out) would count twice.
  return readAll(ReadableStream.prototype.getReader.call(bodyOf.call(response)!) as DefaultReader, state.limit);
}

/** Every byte `reader` reads, or a `ResponseTooLargeError` (the rest cancelled) once more than `limit` came. */
async function readAll(reader: DefaultReader, limit: number): Promise<Uint8Array> {
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

type DefaultReader = ReadableStreamDefaultReader<Uint8Array>;
type ReadResult = Awaited<ReturnType<DefaultReader["read"]>>;
type PipeOptions = Parameters<ReadableStream<Uint8Array>["pipeTo"]>[1];

const counter = Symbol("keelson.counter");
/** A body's count: the bytes its readers took so far, against its limit. */
interface Count {
  readonly limit: number;
  bytesRead: number;
}
type CountedBody = ReadableStream<Uint8Array> & { [counter]: Count };

/** fetch's own body, its reads counted against `limit` (its prototype swapped once: no stream of our own). */
function counted(body: ReadableStream<Uint8Array>, limit: number): ReadableStream<Uint8Array> {
  if ((body as Partial<CountedBody>)[counter] !== undefined) return body;
  (body as CountedBody)[counter] = { limit, bytesRead: 0 };
  return Object.setPrototypeOf(body, CountedStream.prototype) as ReadableStream<Uint8Array>;
}

/**
 * The ways of reading a counted body. Never constructed: a body takes its prototype
 * (ReadableStream.prototype below it). A reader's reads count, and past the limit fail with the
 * cap's error, the rest cancelled; `for await` and `values()` read through such a reader; the
 * platform's piping and teeing read the stream without its readers, so they go through a capped
 * stream made for them (rarely: no SDK reads a response that way).
 */
class CountedStream {
  getReader(this: CountedBody, options?: { mode?: "byob" }): ReadableStreamDefaultReader<Uint8Array> {
    const reader = ReadableStream.prototype.getReader.call(this, options as undefined) as DefaultReader;
    const read = reader.read.bind(reader);
    const count = this[counter];
    const took = (result: ReadResult) => {
      if (result.done) return result;
      count.bytesRead += result.value.byteLength;
      if (count.bytesRead > count.limit) throw tooLarge(reader, count.limit, count.bytesRead);
      return result;
    };
    // An own `read` on fetch's reader: its other members (releaseLock, cancel, closed) stay fetch's own.
    (reader as { read: (...args: unknown[]) => Promise<ReadResult> }).read = (...args: unknown[]) =>
      (read as (...args: unknown[]) => Promise<ReadResult>)(...args).then(took);
    return reader;
  }

  values(this: CountedBody, options?: { preventCancel?: boolean }): AsyncIterableIterator<Uint8Array> {
    const reader = CountedStream.prototype.getReader.call(this);
    const iterator: AsyncIterableIterator<Uint8Array> = {
      next: () =>
        reader.read().then(
          (result) => {
            if (result.done) reader.releaseLock();
            return result as IteratorResult<Uint8Array>;
          },
          (error: unknown) => {
            reader.releaseLock();
            throw error;
          },
        ),
      return: async (value?: unknown) => {
        if (options?.preventCancel) reader.releaseLock();
        else await reader.cancel(value).finally(() => reader.releaseLock());
        return { done: true, value: value as Uint8Array };
      },
      [Symbol.asyncIterator]: () => iterator,
    };
    return iterator;
  }

  [Symbol.asyncIterator](this: CountedBody, options?: { preventCancel?: boolean }): AsyncIterableIterator<Uint8Array> {
    return CountedStream.prototype.values.call(this, options);
  }

  pipeTo(this: CountedBody, destination: WritableStream<Uint8Array>, options?: PipeOptions): Promise<void> {
    return cappedStream(this).pipeTo(destination, options);
  }

  pipeThrough<T>(
    this: CountedBody,
    transform: { writable: WritableStream<Uint8Array>; readable: ReadableStream<T> },
    options?: PipeOptions,
  ): ReadableStream<T> {
    return cappedStream(this).pipeThrough(transform, options);
  }

  tee(this: CountedBody): [ReadableStream<Uint8Array>, ReadableStream<Uint8Array>] {
    return cappedStream(this).tee();
  }
}

/** A counted body as a stream of its own that errors with the cap's error past its limit (reads nothing until read). */
function cappedStream(body: CountedBody): ReadableStream<Uint8Array> {
  const reader = CountedStream.prototype.getReader.call(body);
  return new ReadableStream<Uint8Array>(
    {
      async pull(controller) {
        const { done, value } = await reader.read();
        if (done) controller.close();
        else controller.enqueue(value);
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
