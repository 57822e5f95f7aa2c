import type { ChatModelOutput } from "../output.js";
import type { ChatModelChunk } from "./chat-model-chunk.js";

/**
 * A streamed call: iterate it for chunks, and `final()` for the whole output. The request starts
 * when iteration (or `final()`) starts; a stream can be iterated once.
 */
export class ChatModelStream implements AsyncIterable<ChatModelChunk> {
  readonly #start: () => AsyncGenerator<ChatModelChunk, ChatModelOutput>;
  #started = false;
  readonly #final: Promise<ChatModelOutput>;
  #resolve!: (output: ChatModelOutput) => void;
  #reject!: (error: unknown) => void;

  constructor(start: () => AsyncGenerator<ChatModelChunk, ChatModelOutput>) {
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
      throw new TypeError("This stream is already being read: a ChatModelStream can be iterated once. Use final() for the output.");
    }
    this.#started = true;
    const generator = this.#start();
    // Plain promise callbacks rather than an async wrapper: one promise less per chunk.
    const settle = (result: IteratorResult<ChatModelChunk, ChatModelOutput>): IteratorResult<ChatModelChunk> => {
      if (!result.done) return result;
      this.#resolve(result.value);
      return { done: true, value: undefined };
    };
    const fail = (error: unknown): never => {
      this.#reject(error);
      throw error;
    };
    return {
      next: () => generator.next().then(settle, fail),
      return: async () => {
        const result = await generator.return(undefined as never);
        if (result.done && result.value) this.#resolve(result.value);
        else this.#reject(new DOMException("The stream was closed before it finished", "AbortError"));
        return { done: true, value: undefined };
      },
    };
  }

  /** The whole output once the stream ends; reads the stream itself if nobody iterates it. */
  async final(): Promise<ChatModelOutput> {
    if (!this.#started) {
      for await (const _chunk of this) {
        // drained for the output
      }
    }
    return this.#final;
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
