import type { ToolCall } from "../messages.js";
import type { ChatModelOutput } from "../output.js";
import type { ChatModelChunk } from "./chat-model-chunk.js";

/** How a stream's `final()` learns how its call ended, for a run that settles the call itself. */
export interface StreamFinal {
  resolve(output: ChatModelOutput): void;
  reject(error: unknown): void;
}

/** How a call's chunk source ends it: settles it (events, signal) and tells the stream's final(). */
export interface CallEnd {
  succeed(output: ChatModelOutput): void;
  /** Returns the error the caller gets (an abort as the platform's AbortError). */
  fail(error: unknown): unknown;
}

/** The one way a streamed call ends, whether its chunks or its stream notice the end. */
export function callEnd(settle: StreamRun["settle"], final: StreamFinal): CallEnd {
  return {
    succeed: (output) => {
      settle({ output });
      final.resolve(output);
    },
    fail: (error) => {
      const failure = settle({ error }) ?? error;
      final.reject(failure);
      return failure;
    },
  };
}

/** A started streamed call, as the model hands it to its stream. */
export interface StreamRun {
  /** The call's chunks, returning its output; read one `next()` at a time. */
  chunks: AsyncIterator<ChatModelChunk, ChatModelOutput>;
  /**
   * Ends the call once (events, signal released): with its output, with the error it failed with
   * (the error the caller gets is returned), or closed by a consumer that stopped reading.
   */
  settle(outcome: { output: ChatModelOutput } | { error: unknown } | { closed: true }): Error | undefined;
  /**
   * True when `chunks` settles the call itself and tells the `StreamFinal` the run was started
   * with: its last `next()` resolves done (value undefined) once the call has succeeded, or rejects
   * with the error the call ended with. The stream then hands each `next()` on as it is, rather
   * than through a promise of its own per chunk.
   */
  settlesItself?: boolean;
}

/**
 * A streamed call: iterate it for chunks, and `final()` for the whole output. The request starts
 * when iteration (or `final()`) starts; a stream can be iterated once. `Call` is the type of the
 * output's tool calls (given typed tools, a union discriminated by `name`).
 */
export class ChatModelStream<
  Call extends ToolCall<string, unknown> = ToolCall,
> implements AsyncIterable<ChatModelChunk> {
  readonly #start: (final: StreamFinal) => StreamRun;
  #started = false;
  readonly #final: Promise<ChatModelOutput>;
  #resolve!: (output: ChatModelOutput) => void;
  #reject!: (error: unknown) => void;

  constructor(start: (final: StreamFinal) => StreamRun) {
    this.#start = start;
    this.#final = new Promise((resolve, reject) => {
      this.#resolve = resolve;
      this.#reject = reject;
    });
    // Rejections reach whoever awaits final() or iterates; an unobserved final() is not an unhandled rejection.
    this.#final.catch(() => {});
  }

  [Symbol.asyncIterator](): AsyncIterator<ChatModelChunk> {
    if (this.#started) {
      throw new TypeError(
        "This stream is already being read: a ChatModelStream can be iterated once. Use final() for the output.",
      );
    }
    this.#started = true;
    const final: StreamFinal = { resolve: this.#resolve, reject: this.#reject };
    const run = this.#start(final);
    const close = async (): Promise<IteratorResult<ChatModelChunk>> => {
      const error = run.settle({ closed: true });
      await run.chunks.return?.().catch(() => undefined);
      if (error) this.#reject(error);
      return { done: true, value: undefined };
    };
    // Each layer a chunk passes through costs a promise per chunk (and the lookup of `then` on
    // the result it resolves with): a run that settles itself is passed through.
    if (run.settlesItself)
      return { next: () => run.chunks.next() as Promise<IteratorResult<ChatModelChunk>>, return: close };
    const end = callEnd(run.settle, final);
    /** Whether the last chunk handed out was the reply's `finish`: nothing but the call's end comes after it. */
    let finished = false;
    const settle = (result: IteratorResult<ChatModelChunk, ChatModelOutput>): IteratorResult<ChatModelChunk> => {
      if (!result.done) {
        finished = result.value.type === "finish";
        return result;
      }
      end.succeed(result.value);
      return { done: true, value: undefined };
    };
    const fail = (caught: unknown): never => {
      throw end.fail(caught);
    };
    const next = () => run.chunks.next().then(settle, fail);
    // A consumer that stops on the finish chunk has the whole reply: the call is read to its end
    // (a success, and a cache entry) rather than aborted.
    const leave = async (): Promise<IteratorResult<ChatModelChunk>> => {
      if (!finished) return close();
      try {
        while (!(await next()).done);
      } catch {
        // final() and the events have the error.
      }
      return { done: true, value: undefined };
    };
    return { next, return: leave };
  }

  /** The whole output once the stream ends; reads the stream itself if nobody iterates it. */
  async final(): Promise<ChatModelOutput<Call>> {
    if (!this.#started) {
      for await (const _chunk of this) {
        // drained for the output
      }
    }
    // The pipeline validated each call against its tool's schema: the calls are of the tools given.
    return this.#final as Promise<ChatModelOutput<ToolCall<string, unknown>>> as Promise<ChatModelOutput<Call>>;
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
}
