import type { ChatModelChunk } from "./chat-model-chunk.js";

type ChunkResult = IteratorResult<ChatModelChunk, undefined>;

/**
 * An iterator of chunks that can hand its next result straight to the reader's callbacks:
 * `readNext(onResult, onError)` does what `next().then(onResult, onError)` does, without the
 * promise in between — and calls `onResult` at once when the result is already at hand. The
 * call's stream reads `chunkStream`'s iterators this way: a promise callback less per chunk.
 */
export interface ChunkReader {
  readNext<R>(
    onResult: (result: ChunkResult) => R | Promise<R>,
    onError: (error: unknown) => R | Promise<R>,
  ): R | Promise<R>;
}

export function isChunkReader(
  iterator: AsyncIterator<ChatModelChunk>,
): iterator is AsyncIterator<ChatModelChunk> & ChunkReader {
  return typeof (iterator as Partial<ChunkReader>).readNext === "function";
}
