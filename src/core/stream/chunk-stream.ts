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
 * An iterator a reader above can map without a promise step of its own: `nextThen(took, threw)`
 * is `next().then(took, threw)`, the handlers run in the step that read the chunk. chunkStream's
 * iterators have it, the pre-flight guard's, and the call's chunks (callChunks), so a chunk meets
 * one `then` from the provider's stream to the caller's `for await`. A `then` per level costs an
 * Ollama stream 6.2 % of its instructions (1886k → 2003k, npm run bench:instructions) and an
 * Anthropic stream 6 % on the real path (4871k → 5163k, BENCH_REAL_PATH=1), measured on ab56849 by
 * making readThen ignore nextThen. It spans the four levels it joins, not one file: the exception
 * to the rule that an optimisation lives in one file (docs/performance.md says why it stays).
 */
export interface ChainedReads<T, R> extends AsyncIterator<T, R, undefined> {
  nextThen<U>(
    took: (result: IteratorResult<T, R>) => U | PromiseLike<U>,
    threw: (error: unknown) => U | PromiseLike<U>,
  ): Promise<U>;
}

/** `iterator.next().then(took, threw)`, in the read's own step where the iterator chains its reads (see ChainedReads). */
export function readThen<T, R, U>(
  iterator: AsyncIterator<T, R, undefined>,
  took: (result: IteratorResult<T, R>) => U | PromiseLike<U>,
  threw: (error: unknown) => U | PromiseLike<U>,
): Promise<U> {
  const chained = iterator as Partial<ChainedReads<T, R>>;
  return typeof chained.nextThen === "function" ? chained.nextThen(took, threw) : iterator.next().then(took, threw);
}

/**
 * A provider's stream of parts as keelson chunks, for an adapter's `_createStream`. `open` runs on
 * the first read and its errors pass through as thrown (the adapter maps them, knowing the
 * response); errors while reading, `toChunks`' and `end`'s included, go through the opened stream's
 * `mapError`. `close` runs once, however reading stops.
 */
export function chunkStream<T>(open: () => Promise<OpenedParts<T>>): AsyncIterable<ChatModelChunk> {
  return { [Symbol.asyncIterator]: () => new PartsReader(open) };
}

type Read = IteratorResult<ChatModelChunk, undefined>;

const ended = (): Read => ({ done: true, value: undefined });

/**
 * chunkStream's iterator, read as an async generator would be (reads that overlap are answered in
 * order; after an error or a return() every read is the end). Written by hand, one `then` per part:
 * the generator's `yield*` over each part's chunks cost an Ollama stream 17 % of its instructions
 * (5509k → 4592k, npm run bench:instructions).
 */
class PartsReader<T> implements ChainedReads<ChatModelChunk, undefined> {
  readonly #open: () => Promise<OpenedParts<T>>;
  #opened: OpenedParts<T> | undefined;
  #parts: AsyncIterator<T> | undefined;
  /** The chunks of the part last read (or of the end), and how many were handed out. */
  #chunks: ChatModelChunk[] = [];
  #taken = 0;
  /** The parts ran out and `end()` gave the last chunks. */
  #finished = false;
  /** Reading is over (an error, a return(), the end read): every read after it is the end. */
  #over = false;
  /** The read in flight, which a read or return() that overlaps it waits for. */
  #pending: Promise<unknown> | undefined;
  /** The handlers of the read in flight that nextThen() made (reads do not overlap while it is). */
  #chainedTook: ((result: Read) => unknown) | undefined;
  #chainedThrew: ((error: unknown) => unknown) | undefined;

  constructor(open: () => Promise<OpenedParts<T>>) {
    this.#open = open;
  }

  next(): Promise<Read> {
    if (this.#over) return Promise.resolve(ended());
    if (this.#pending !== undefined) return this.#pending.then(this.#next, this.#next);
    if (this.#taken < this.#chunks.length) return Promise.resolve({ done: false, value: this.#chunks[this.#taken++]! });
    if (this.#finished) {
      this.#stop(true);
      return Promise.resolve(ended());
    }
    const pending = this.#parts === undefined ? this.#start() : this.#parts.next().then(this.#took, this.#threw);
    this.#pending = pending;
    return pending;
  }

  /** A part read and mapped in one step, when one is due: else next() and then the handlers. */
  nextThen<U>(took: (result: Read) => U | PromiseLike<U>, threw: (error: unknown) => U | PromiseLike<U>): Promise<U> {
    if (
      this.#over ||
      this.#pending !== undefined ||
      this.#parts === undefined ||
      this.#taken < this.#chunks.length ||
      this.#finished
    )
      return this.next().then(took, threw);
    this.#chainedTook = took;
    this.#chainedThrew = threw;
    const pending = this.#parts.next().then(this.#chainTook, this.#chainThrew) as Promise<U>;
    this.#pending = pending;
    return pending;
  }

  readonly #chainTook = (result: IteratorResult<T>): unknown => this.#chain(this.#took(result));
  readonly #chainThrew = (error: unknown): unknown => this.#chain(this.#threw(error));

  /** The chained read's chunk (or its end, or error) handed to its handlers. */
  #chain(read: Read | Promise<Read>): unknown {
    const took = this.#chainedTook!;
    const threw = this.#chainedThrew!;
    this.#chainedTook = this.#chainedThrew = undefined;
    return read instanceof Promise ? read.then(took, threw) : took(read);
  }

  return(): Promise<Read> {
    if (this.#pending !== undefined && !this.#over) return this.#pending.then(this.#return, this.#return);
    return this.#leave();
  }

  readonly #next = () => this.next();
  readonly #return = () => this.return();

  /** The first read: the stream opened (its errors as they are), then its first part read. */
  async #start(): Promise<Read> {
    let opened: OpenedParts<T>;
    try {
      opened = await this.#open();
    } catch (error) {
      this.#over = true;
      throw error;
    }
    this.#opened = opened;
    try {
      this.#parts = opened.parts[Symbol.asyncIterator]();
    } catch (error) {
      return this.#fail(error, false);
    }
    this.#pending = undefined;
    return this.next();
  }

  readonly #took = (result: IteratorResult<T>): Read | Promise<Read> => {
    this.#pending = undefined;
    const opened = this.#opened!;
    try {
      if (result.done) {
        this.#chunks = opened.end?.() ?? [];
        this.#finished = true;
      } else this.#chunks = opened.toChunks(result.value);
    } catch (error) {
      // An unreadable part lets go of the parts first, as a `for await` left by a throw does.
      return this.#fail(error, !result.done);
    }
    if (this.#chunks.length === 0) return this.next();
    this.#taken = 1;
    return { done: false, value: this.#chunks[0]! };
  };

  readonly #threw = (error: unknown): Promise<Read> => {
    this.#pending = undefined;
    return this.#fail(error, false);
  };

  async #fail(error: unknown, returnParts: boolean): Promise<Read> {
    this.#over = true;
    this.#chunks = [];
    if (returnParts) await Promise.resolve(this.#parts?.return?.()).catch(() => undefined);
    try {
      throw this.#opened?.mapError ? this.#opened.mapError(error) : error;
    } finally {
      this.#stop(false);
    }
  }

  /** The consumer stops: the provider's parts let go of, unless they ran out (what returning them throws is mapped). */
  async #leave(): Promise<Read> {
    if (this.#over || this.#opened === undefined) {
      this.#over = true;
      return ended();
    }
    this.#over = true;
    this.#chunks = [];
    if (this.#finished) {
      this.#stop(true);
      return ended();
    }
    try {
      await this.#parts?.return?.();
    } catch (error) {
      throw this.#opened.mapError ? this.#opened.mapError(error) : error;
    } finally {
      this.#stop(false);
    }
    return ended();
  }

  #stop(finished: boolean): void {
    this.#over = true;
    this.#opened?.close?.(finished);
  }
}
