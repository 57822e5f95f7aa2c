import type { Readable } from "node:stream";
import type * as Zlib from "node:zlib";
import { lazyRequire } from "./lazy-require.js";

const ignore = (): void => undefined;
// zlib only for a compressed body, which keelson does not ask for.
const loadZlib = lazyRequire<typeof Zlib>("node:zlib", "compressed response bodies");
const sync = (zlib: typeof Zlib) => ({ flush: zlib.constants.Z_SYNC_FLUSH, finishFlush: zlib.constants.Z_SYNC_FLUSH });
const decoders: Readonly<Record<string, (zlib: typeof Zlib) => NodeJS.ReadWriteStream>> = {
  gzip: (zlib) => zlib.createGunzip(sync(zlib)),
  "x-gzip": (zlib) => zlib.createGunzip(sync(zlib)),
  deflate: (zlib) => zlib.createInflate(sync(zlib)),
  br: (zlib) => zlib.createBrotliDecompress({ flush: zlib.constants.BROTLI_OPERATION_FLUSH, finishFlush: zlib.constants.BROTLI_OPERATION_FLUSH }),
};

/**
 * A response body as fetch hands it over: a byte stream, decoded when the server compressed it
 * (keelson asks for no encoding, but a server may send one anyway), read only as fast as the reader
 * reads, ending with the signal's reason on an abort and with fetch's `TypeError: terminated`
 * (the cause under it) when the connection fails. Cancelling it closes the request.
 */
export function decodedBody(raw: Readable, encoding: string | string[] | undefined, signal: AbortSignal | undefined): ReadableStream<Uint8Array> {
  const decoder = typeof encoding === "string" ? decoders[encoding.trim().toLowerCase()] : undefined;
  const source: Readable = decoder ? (raw.pipe(decoder(loadZlib())) as unknown as Readable) : raw;
  if (decoder) raw.once("error", (error) => source.destroy(error));
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
        if (source !== raw) raw.on("error", ignore).destroy();
        await chunks.return?.();
      },
    },
    { highWaterMark: 0 },
  );
}
