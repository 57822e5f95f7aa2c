import type { Readable } from "node:stream";
import type * as Zlib from "node:zlib";
import { lazyRequire } from "./lazy-require.js";

const ignore = (): void => undefined;
// zlib only for a compressed body, which keelson does not ask for.
const loadZlib = lazyRequire<typeof Zlib>("node:zlib", "compressed response bodies");
const loadStream = lazyRequire<typeof import("node:stream")>("node:stream", "compressed response bodies");
const sync = (zlib: typeof Zlib) => ({ flush: zlib.constants.Z_SYNC_FLUSH, finishFlush: zlib.constants.Z_SYNC_FLUSH });
const decoders: Readonly<Record<string, (zlib: typeof Zlib) => NodeJS.ReadWriteStream>> = {
  gzip: (zlib) => zlib.createGunzip(sync(zlib)),
  "x-gzip": (zlib) => zlib.createGunzip(sync(zlib)),
  deflate: (zlib) => deflateDecoder(zlib),
  br: (zlib) =>
    zlib.createBrotliDecompress({
      flush: zlib.constants.BROTLI_OPERATION_FLUSH,
      finishFlush: zlib.constants.BROTLI_OPERATION_FLUSH,
    }),
};

/** deflate as fetch reads it: zlib-wrapped, or raw (no zlib header) as some servers send it. */
function deflateDecoder(zlib: typeof Zlib): NodeJS.ReadWriteStream {
  const { Transform } = loadStream();
  let inflate: Zlib.Inflate | Zlib.InflateRaw | undefined;
  return new Transform({
    transform(chunk: Buffer, _encoding, callback) {
      if (!inflate) {
        inflate = (chunk[0]! & 0x0f) === 0x08 ? zlib.createInflate(sync(zlib)) : zlib.createInflateRaw(sync(zlib));
        inflate.on("data", (data: Buffer) => this.push(data));
        inflate.once("error", (error) => this.destroy(error));
      }
      inflate.write(chunk, callback);
    },
    flush(callback) {
      if (!inflate) return callback();
      inflate.once("end", () => callback());
      inflate.end();
    },
  });
}

/**
 * A response body as fetch hands it over: a byte stream, decoded when the server compressed it
 * (keelson asks for no encoding, but a server may send one anyway), read only as fast as the reader
 * reads, ending with the signal's reason on an abort and with fetch's `TypeError: terminated`
 * (the cause under it) when the connection fails. Cancelling it closes the request.
 */
export function decodedBody(
  raw: Readable,
  encoding: string | string[] | undefined,
  signal: AbortSignal | undefined,
): ReadableStream<Uint8Array> {
  const chain = typeof encoding === "string" ? decoderChain(encoding) : [];
  // pipeline passes an error on to the last stream and destroys them all when that one is.
  const source =
    chain.length === 0
      ? raw
      : (loadStream().pipeline([raw, ...chain.map((decoder) => decoder(loadZlib()))], ignore) as unknown as Readable);
  const chunks = source[Symbol.asyncIterator]() as AsyncIterator<Uint8Array>;
  return new ReadableStream<Uint8Array>(
    {
      async pull(controller) {
        try {
          const next = await chunks.next();
          if (next.done) controller.close();
          else controller.enqueue(next.value);
        } catch (error) {
          controller.error(signal?.aborted ? signal.reason : new TypeError("terminated", { cause: error }));
        }
      },
      async cancel() {
        await chunks.return?.();
      },
    },
    { highWaterMark: 0 },
  );
}

/** As fetch: a list of codings is undone last first; one it does not know (or more than 5) leaves the body as sent. */
function decoderChain(encoding: string): ((zlib: typeof Zlib) => NodeJS.ReadWriteStream)[] {
  const codings = encoding
    .toLowerCase()
    .split(",")
    .map((coding) => coding.trim())
    .filter(Boolean)
    .reverse();
  return codings.length <= 5 && codings.every((coding) => Object.hasOwn(decoders, coding))
    ? codings.map((coding) => decoders[coding]!)
    : [];
}
