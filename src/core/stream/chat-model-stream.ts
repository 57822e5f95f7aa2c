import { describeThrown } from "../../internal/describe-thrown.js";
import type { ToolCall } from "../messages.js";
import type { ChatModelOutput } from "../output.js";
import type { ChatModelChunk } from "./chat-model-chunk.js";
import { readThen } from "./chunk-stream.js";

/** A streamed call as a ChatModelStream reads it: made on the stream's first read, ended once. */
export interface StreamCall {
  /** The call's chunks; the iterator's return value is the output. */
  readonly chunks: AsyncIterator<ChatModelChunk, ChatModelOutput, undefined>;
  /** The call ended with its output (before final() resolves): its `success` and `finish`. */
  succeeded?(output: ChatModelOutput): void;
  /** The call failed, a consumer's early stop included (before final() rejects): the error it ends with. */
  failed?(error: unknown): Error;
  /** Ends the call's request at once: its consumer stopped reading. */
  stop?(): void;
}

type Result = IteratorResult<ChatModelChunk, undefined>;
type Waiting = { resolve: (result: Result) => void; reject: (error: unknown) => void };

const ended = (): Result => ({ done: true, value: undefined });

/**
 * A streamed call: iterate it for chunks, and `final()` for the whole output. The request starts
 * when iteration (or `final()`) starts, and a stream opens one request however it is read: `next()`
 * calls that overlap are answered in order. A stream can be iterated once. `final()` settles
 * whatever the consumer does: called while a consumer iterates, it reads the stream to its end,
 * keeping the chunks the consumer has not taken yet for it. A consumer that stops early (`break`,
 * `return()`, `throw()`) ends the call with an AbortError, unless the last chunk it took was the
 * `finish`. `Call` is the type of the output's tool calls (given typed tools, a union discriminated by `name`).
 */
export class ChatModelStream<
  Call extends ToolCall<string, unknown> = ToolCall,
  Object = unknown,
> implements AsyncIterable<ChatModelChunk> {
  readonly #open: () => StreamCall;
  #call: StreamCall | undefined;
  /** An iterator was handed out; `#left` once its consumer stopped. */
  #iterating = false;
  #left = false;
  /** final() was called before any iteration: it reads the stream, and nobody else can. */
  #readByFinal = false;
  /** The call has ended (final() settled); `#error` when it failed, `#errorSeen` once the consumer has had it. */
  #ended = false;
  #error: Error | undefined;
  #errorSeen = false;
  /** Whether the last chunk the consumer took was the reply's `finish`: nothing but the call's end comes after it. */
  #tookFinish = false;
  /** final()'s reading to the end while a consumer iterates; the chunks it read that the consumer has not taken. */
  #readingToEnd: Promise<void> | undefined;
  readonly #ahead: ChatModelChunk[] = [];
  /** The call's read in flight: a read that overlaps it waits for it (the call's chunks are read one at a time). */
  #reading: Promise<unknown> | undefined;
  readonly #waiting: Waiting[] = [];
  readonly #final: Promise<ChatModelOutput>;
  #resolve!: (output: ChatModelOutput) => void;
  #reject!: (error: unknown) => void;

  /** `open` starts the call (on the first read): its chunks, and what to do when it ends or its consumer stops. */
  constructor(open: () => StreamCall) {
    this.#open = open;
    this.#final = new Promise((resolve, reject) => {
      this.#resolve = resolve;
      this.#reject = reject;
    });
    // Rejections reach whoever awaits final() or iterates; an unobserved final() is not an unhandled rejection.
    this.#final.catch(() => {});
  }

  [Symbol.asyncIterator](): AsyncIterator<ChatModelChunk> {
    if (this.#iterating || this.#readByFinal) {
      throw new TypeError(
        this.#iterating
          ? "This stream is already being read: a ChatModelStream can be iterated once. Use final() for the output."
          : "This stream was read by final(): a ChatModelStream can be iterated once, before or while final() reads it. Create a new stream to iterate.",
      );
    }
    this.#iterating = true;
    return {
      next: () => this.#next(),
      return: () => this.#leave(),
      throw: (error?: unknown) => this.#leave().then(() => Promise.reject(error)),
    };
  }

  /** The whole output once the call ends; reads the stream to its end itself (see the class). */
  final(): Promise<ChatModelOutput<Call, Object>> {
    if (!this.#iterating) this.#readByFinal = true;
    if (!this.#ended) this.#readingToEnd ??= this.#readToEnd();
    // The pipeline validated each call against its tool's schema: the calls are of the tools given.
    return this.#final as Promise<ChatModelOutput<ToolCall<string, unknown>>> as Promise<ChatModelOutput<Call, Object>>;
  }

  /** The chunks as a web ReadableStream (for a Response body or a UI). */
  toReadableStream(): ReadableStream<ChatModelChunk> {
    const iterator = this[Symbol.asyncIterator]();
    return new ReadableStream<ChatModelChunk>({
      async pull(controller) {
        try {
          const { done, value } = await iterator.next();
          if (done) controller.close();
          else controller.enqueue(value);
        } catch (error) {
          controller.error(error);
        }
      },
      async cancel() {
        await iterator.return?.();
      },
    });
  }

  /** The consumer's next chunk: one final() read ahead, or one read now, or the call's end. */
  #next(): Promise<Result> {
    const chunk = this.#ahead.shift();
    if (chunk !== undefined) return Promise.resolve(this.#handOut(chunk));
    if (this.#ended || this.#left) return this.#afterEnd();
    if (this.#readingToEnd !== undefined)
      return new Promise((resolve, reject) => this.#waiting.push({ resolve, reject }));
    return this.#read(this.#took, this.#threw);
  }

  /** Reads the call's next chunk, starting the call on the first read; one read at a time, in order. */
  #read(
    took: (result: IteratorResult<ChatModelChunk, ChatModelOutput>) => Result,
    threw: (error: unknown) => Result,
  ): Promise<Result> {
    if (this.#reading !== undefined) {
      const after = () => this.#read(took, threw);
      return this.#reading.then(after, after);
    }
    try {
      const { chunks } = (this.#call ??= this.#open());
      // The call's chunks take the handlers themselves (ChainedReads): no promise step of this stream's own per chunk.
      const reading = readThen(chunks, took, threw);
      // Cleared by the handlers (`took`, `threw`), which run before a read that waited for this one.
      this.#reading = reading;
      return reading;
    } catch (error) {
      return Promise.reject(this.#ended ? error : this.#fail(error));
    }
  }

  // One pair of handlers per stream, not per chunk. A read's result ends the call when it is the last.
  readonly #took = (result: IteratorResult<ChatModelChunk, ChatModelOutput>): Result => {
    this.#reading = undefined;
    if (!result.done) {
      this.#tookFinish = result.value.type === "finish";
      return result;
    }
    if (!this.#ended) this.#succeed(result.value);
    return ended();
  };

  readonly #threw = (error: unknown): Result => {
    this.#reading = undefined;
    // A read the consumer left during ends with the stream: the stop was its own.
    if (this.#left) return ended();
    this.#errorSeen = true;
    throw this.#ended ? (this.#error ?? error) : this.#fail(error);
  };

  /** final()'s read of the rest: the chunks go to the consumer (waiting, or later), when there is one. */
  async #readToEnd(): Promise<void> {
    const took = (result: IteratorResult<ChatModelChunk, ChatModelOutput>): Result => {
      this.#reading = undefined;
      if (result.done) {
        if (!this.#ended) this.#succeed(result.value);
        return ended();
      }
      return result;
    };
    const threw = (error: unknown): never => {
      this.#reading = undefined;
      throw this.#ended ? (this.#error ?? error) : this.#fail(error);
    };
    while (!this.#ended) {
      const result = await this.#read(took, threw).catch(ended);
      if (result.done) break;
      if (!this.#iterating || this.#left) continue;
      const waiting = this.#waiting.shift();
      if (waiting) waiting.resolve(this.#handOut(result.value));
      else this.#ahead.push(result.value);
    }
    // The call ended: a consumer still waiting is told (the error it has not had yet, then the end).
    for (const waiting of this.#waiting.splice(0)) this.#afterEnd().then(waiting.resolve, waiting.reject);
  }

  #handOut(chunk: ChatModelChunk): Result {
    this.#tookFinish = chunk.type === "finish";
    return { done: false, value: chunk };
  }

  /** What the consumer reads once the call ended: its error, once, and then the end. */
  #afterEnd(): Promise<Result> {
    if (this.#error === undefined || this.#errorSeen) return Promise.resolve(ended());
    this.#errorSeen = true;
    return Promise.reject(this.#error);
  }

  /**
   * The consumer stops. A call still running is ended with an AbortError and its request let go of
   * at once, unless the consumer has the whole reply (it stopped on the `finish`): then the call is
   * read to its end (a success, and a cache entry).
   */
  async #leave(): Promise<Result> {
    this.#left = true;
    // A consumer that stopped has no chunk or error owed to it.
    this.#errorSeen = true;
    this.#ahead.length = 0;
    const call = this.#call;
    if (!this.#ended) {
      if (call !== undefined && this.#tookFinish) await (this.#readingToEnd ??= this.#readToEnd());
      else {
        this.#fail(new DOMException("The stream was closed by its consumer", "AbortError"));
        if (call !== undefined) {
          call.stop?.();
          // The adapter's stream is let go of before return() resolves (what it throws on the way out does not matter).
          await Promise.resolve()
            .then(() => call.chunks.return?.())
            .catch(() => undefined);
        }
      }
    }
    for (const waiting of this.#waiting.splice(0)) waiting.resolve(ended());
    return ended();
  }

  #succeed(output: ChatModelOutput): void {
    this.#ended = true;
    try {
      this.#call?.succeeded?.(output);
    } finally {
      this.#resolve(output);
    }
  }

  #fail(caught: unknown): Error {
    this.#ended = true;
    let error: Error;
    try {
      error = this.#call?.failed?.(caught) ?? asError(caught);
    } catch {
      error = asError(caught);
    }
    this.#error = error;
    this.#reject(error);
    return error;
  }
}

function asError(error: unknown): Error {
  return error instanceof Error ? error : new Error(describeThrown(error));
}
