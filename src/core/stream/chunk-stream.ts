import type { ChatModelChunk } from "./chat-model-chunk.js";
import type { ChunkReader } from "./chunk-reader.js";

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
 * A provider's stream of parts as keelson chunks, for an adapter's `_createStream`, without an
 * async generator: each generator layer a chunk passes through costs a few promise hops per chunk
 * (~20 µs per 200-chunk stream in a micro-benchmark; this costs ~7). `open` runs on the first read
 * and its errors pass through as thrown (the adapter maps them, knowing the response); errors while
 * reading, `toChunks`' and `end`'s included, go through the opened stream's `mapError`. Read by one
 * consumer, one `next()` at a time.
 */
export function chunkStream<T>(open: () => Promise<OpenedParts<T>>): AsyncIterable<ChatModelChunk> {
  return { [Symbol.asyncIterator]: () => new ChunkIterator(open) };
}

const end: IteratorReturnResult<undefined> = Object.freeze({ done: true, value: undefined });

type ChunkResult = IteratorResult<ChatModelChunk, undefined>;

/** A reader's two callbacks, and the part handlers made for them once (not per chunk). */
interface ReaderHandlers {
  onResult: (result: ChunkResult) => unknown;
  onError: (error: unknown) => unknown;
  onPart: (result: IteratorResult<unknown>) => unknown;
  onPartsError: (error: unknown) => unknown;
}

class ChunkIterator<T> implements AsyncIterator<ChatModelChunk, undefined>, ChunkReader {
  readonly #open: () => Promise<OpenedParts<T>>;
  #opened: OpenedParts<T> | undefined;
  #parts: AsyncIterator<T> | undefined;
  /** Chunks of the last part not handed out yet (a part can make several). */
  #pending: ChatModelChunk[] = [];
  #nextPending = 0;
  #closed = false;
  #reader: ReaderHandlers | undefined;

  constructor(open: () => Promise<OpenedParts<T>>) {
    this.#open = open;
  }

  readNext<R>(
    onResult: (result: ChunkResult) => R | Promise<R>,
    onError: (error: unknown) => R | Promise<R>,
  ): R | Promise<R> {
    if (this.#nextPending < this.#pending.length)
      return onResult({ done: false, value: this.#pending[this.#nextPending++]! });
    if (this.#closed) return onResult(end);
    if (!this.#parts) return this.next().then(onResult, onError);
    return this.#parts.next().then(this.#handlers(onResult, onError).onPart, this.#reader!.onPartsError) as Promise<R>;
  }

  /** The part handlers for a reader's callbacks, made on its first read and kept while it reads. */
  #handlers(onResult: (result: ChunkResult) => unknown, onError: (error: unknown) => unknown): ReaderHandlers {
    const known = this.#reader;
    if (known?.onResult === onResult && known.onError === onError) return known;
    const onPart = (result: IteratorResult<T>): unknown => {
      let read: ChunkResult | Promise<ChunkResult>;
      try {
        read = this.#onPart(result);
      } catch (error) {
        return onError(error); // the read failure, mapped by #onError
      }
      return read instanceof Promise ? read.then(onResult, onError) : onResult(read);
    };
    const onPartsError = (error: unknown): unknown => {
      try {
        return this.#onError(error);
      } catch (mapped) {
        return onError(mapped);
      }
    };
    return (this.#reader = { onResult, onError, onPart: onPart as ReaderHandlers["onPart"], onPartsError });
  }

  next(): Promise<IteratorResult<ChatModelChunk, undefined>> {
    if (this.#nextPending < this.#pending.length)
      return Promise.resolve({ done: false, value: this.#pending[this.#nextPending++]! });
    if (this.#closed) return Promise.resolve(end);
    if (!this.#parts) return this.#open().then(this.#start);
    return this.#parts.next().then(this.#onPart, this.#onError);
  }

  async return(): Promise<IteratorResult<ChatModelChunk, undefined>> {
    if (this.#closed) return end;
    this.#closed = true;
    this.#pending = [];
    try {
      await this.#parts?.return?.();
    } catch {
      // The consumer is leaving; what the provider's stream does on the way out is not its concern.
    } finally {
      this.#opened?.close?.(false);
    }
    return end;
  }

  readonly #start = (opened: OpenedParts<T>): Promise<IteratorResult<ChatModelChunk, undefined>> => {
    this.#opened = opened;
    // The consumer left while the stream was opening: let go of it at once.
    if (this.#closed) {
      opened.close?.(false);
      return Promise.resolve(end);
    }
    try {
      this.#parts = opened.parts[Symbol.asyncIterator]();
    } catch (error) {
      return this.#onError(error);
    }
    return this.next();
  };

  readonly #onPart = (
    result: IteratorResult<T>,
  ): IteratorResult<ChatModelChunk, undefined> | Promise<IteratorResult<ChatModelChunk, undefined>> => {
    const opened = this.#opened!;
    let chunks: ChatModelChunk[];
    try {
      chunks = result.done ? (opened.end?.() ?? []) : opened.toChunks(result.value);
    } catch (error) {
      return this.#onError(error);
    }
    if (result.done) this.#close(true);
    if (chunks.length === 0) return result.done ? end : this.next();
    if (chunks.length > 1) {
      this.#pending = chunks;
      this.#nextPending = 1;
    }
    return { done: false, value: chunks[0]! };
  };

  readonly #onError = (error: unknown): never => {
    this.#close(false);
    const mapError = this.#opened?.mapError;
    throw mapError ? mapError(error) : error;
  };

  #close(finished: boolean): void {
    if (this.#closed) return;
    this.#closed = true;
    this.#opened?.close?.(finished);
  }
}
