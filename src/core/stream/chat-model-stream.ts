import type { ToolCall } from "../messages.js";
import type { ChatModelOutput } from "../output.js";
import type { ChatModelChunk } from "./chat-model-chunk.js";

/**
 * A streamed call: iterate it for chunks, and `final()` for the whole output. The request starts
 * when iteration (or `final()`) starts; a stream can be iterated once. `Call` is the type of the
 * output's tool calls (given typed tools, a union discriminated by `name`).
 */
export class ChatModelStream<
  Call extends ToolCall<string, unknown> = ToolCall,
  Object = unknown,
> implements AsyncIterable<ChatModelChunk> {
  readonly #start: (closed: (error: Error) => void) => AsyncGenerator<ChatModelChunk, ChatModelOutput, undefined>;
  #started = false;
  readonly #final: Promise<ChatModelOutput>;
  #resolve!: (output: ChatModelOutput) => void;
  #reject!: (error: unknown) => void;

  /** `start` runs the call: its chunks, returning the output; a consumer that stops early is handed to `closed`. */
  constructor(start: (closed: (error: Error) => void) => AsyncGenerator<ChatModelChunk, ChatModelOutput, undefined>) {
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
    const chunks = this.#start((error) => this.#reject(error));
    let read = false;
    /** Whether the last chunk handed out was the reply's `finish`: nothing but the call's end comes after it. */
    let finished = false;
    const next = async (): Promise<IteratorResult<ChatModelChunk>> => {
      read = true;
      try {
        const result = await chunks.next();
        if (result.done) {
          this.#resolve(result.value);
          return { done: true, value: undefined };
        }
        finished = result.value.type === "finish";
        return result;
      } catch (error) {
        this.#reject(error);
        throw error;
      }
    };
    // A consumer that stops on the finish chunk has the whole reply: the call is read to its end (a
    // success, and a cache entry) rather than aborted. One that stops earlier ends the call.
    const leave = async (): Promise<IteratorResult<ChatModelChunk>> => {
      if (!read) this.#reject(new DOMException("The stream was closed by its consumer", "AbortError"));
      else if (finished) await drain(next);
      else await chunks.return(undefined as never).catch(() => undefined);
      return { done: true, value: undefined };
    };
    return { next, return: leave };
  }

  /** The whole output once the stream ends; reads the stream itself if nobody iterates it. */
  async final(): Promise<ChatModelOutput<Call, Object>> {
    if (!this.#started) {
      for await (const _chunk of this) {
        // drained for the output
      }
    }
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
}

async function drain(next: () => Promise<IteratorResult<ChatModelChunk>>): Promise<void> {
  try {
    while (!(await next()).done);
  } catch {
    // final() and the events have the error.
  }
}
