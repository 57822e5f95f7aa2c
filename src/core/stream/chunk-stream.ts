import type { ChatModelChunk } from "./chat-model-chunk.js";

/** A provider stream an adapter has opened: its parts, how to read them, and how to let go of them. */
export interface OpenedParts<T> {
  parts: AsyncIterable<T>;
  /** One part's chunks (none, one or several). */
  toChunks(part: T): ChatModelChunk[];
  /** The chunks after the last part (a closing `finish`); throws when the parts ended too soon. */
  end?(): ChatModelChunk[];
  /** Runs once when reading stops: `finished` when the parts ran out, false on an error or an early stop. */
  close?(finished: boolean): void;
  /** The error a read failure becomes (the provider's error mapping, which knows the request). @default the error itself */
  mapError?(error: unknown): unknown;
}

/**
 * A provider's stream of parts as keelson chunks, for an adapter's `_createStream`. `open` runs on
 * the first read and its errors pass through as thrown (the adapter maps them, knowing the
 * response); errors while reading, `toChunks`' and `end`'s included, go through the opened stream's
 * `mapError`. `close` runs once, however reading stops.
 */
export function chunkStream<T>(open: () => Promise<OpenedParts<T>>): AsyncIterable<ChatModelChunk> {
  return { [Symbol.asyncIterator]: () => readParts(open) };
}

async function* readParts<T>(
  open: () => Promise<OpenedParts<T>>,
): AsyncGenerator<ChatModelChunk, undefined, undefined> {
  const opened = await open();
  let finished = false;
  try {
    for await (const part of opened.parts) yield* opened.toChunks(part);
    const last = opened.end?.() ?? [];
    finished = true;
    yield* last;
  } catch (error) {
    throw opened.mapError ? opened.mapError(error) : error;
  } finally {
    opened.close?.(finished);
  }
  return undefined;
}
