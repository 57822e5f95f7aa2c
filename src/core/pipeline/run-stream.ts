import { abortError, isAbortError, type CallSignal } from "../../internal/abort.js";
import { ProviderError } from "../errors/provider-error.js";
import type { Message } from "../messages.js";
import type { Attempt, ChatModelOutput, ProviderOutput } from "../output.js";
import { isDelta, type ChatModelChunk } from "../stream/chat-model-chunk.js";
import { StreamAssembler } from "../stream/stream-assembler.js";
import { isChunkReader } from "../stream/chunk-reader.js";
import type { CallHost } from "./call-host.js";
import { partialOutput } from "./partial-output.js";
import { settleAttempt } from "./settle-attempt.js";
import type { PreparedCall } from "./prepare-call.js";
import type { CallState } from "./request-with-retry.js";
import { requestWithRetry } from "./request-with-retry.js";
import type { CallEnd } from "../stream/chat-model-stream.js";

type Result = IteratorResult<ChatModelChunk, ChatModelOutput>;

/**
 * A streamed call. Chunks reach the caller as they arrive (on the tool-union rungs the raw JSON is
 * held back and the calls come whole at the end). Transport errors are retried only until the
 * first chunk arrives; after that the error carries the partial output. A re-ask yields `reset`.
 * Read by one consumer, one `next()` at a time. Given a CallEnd, it settles the call itself: it
 * ends done (value undefined) once the call has succeeded, or fails with the error the call ended
 * with; without one it returns the output, for a reader that settles the call (the cache's).
 */
export function runStream(
  host: CallHost,
  call: PreparedCall,
  linked: CallSignal,
  end?: CallEnd,
): AsyncIterator<ChatModelChunk, ChatModelOutput> {
  return new StreamCall(host, call, linked, end);
}

/**
 * The call as a hand-written iterator rather than an async generator: a chunk costs one promise
 * callback here, where a generator's await and yield cost several (its share of an Ollama stream's
 * CPU was the largest of keelson's own code: `--cpu-prof` on `npm run bench`'s worker).
 */
class StreamCall implements AsyncIterator<ChatModelChunk, ChatModelOutput> {
  readonly #host: CallHost;
  /** The call as the caller made it (events carry its input). */
  readonly #call: PreparedCall;
  readonly #linked: CallSignal;
  readonly #end: CallEnd | undefined;
  readonly #state: CallState;
  readonly #attempts: Attempt[] = [];
  #guidance: Message[] = [];
  #repairs = 0;
  /** The open attempt's chunks, and the first of them when it has not been handed out yet. */
  #iterator: AsyncIterator<ChatModelChunk> | undefined;
  #first: IteratorResult<ChatModelChunk> | undefined;
  #assembler = new StreamAssembler();
  /** On the tool-union rungs the raw JSON is not shown; the calls come whole at the end. */
  #holdBack = false;
  /** Chunks to hand out before anything else: the settled calls and finish, or a reset. */
  #queued: ChatModelChunk[] = [];
  #output: ChatModelOutput | undefined;
  #ended = false;
  /** A newToken listener's abort(): the stream ends with what arrived. */
  #stopped = false;
  readonly #stop = () => {
    this.#stopped = true;
    this.#linked.abort();
  };

  constructor(host: CallHost, call: PreparedCall, linked: CallSignal, end: CallEnd | undefined) {
    this.#host = host;
    this.#call = call;
    this.#linked = linked;
    this.#end = end;
    this.#state = { call, requests: 0, learned: false };
  }

  next(): Promise<Result> {
    try {
      return Promise.resolve(this.#step());
    } catch (error) {
      try {
        return this.#fail(error);
      } catch (failure) {
        return Promise.reject(failure);
      }
    }
  }

  async return(): Promise<Result> {
    this.#ended = true;
    this.#queued = [];
    await this.#closeAttempt();
    return { done: true, value: undefined as never };
  }

  #step(): Result | Promise<Result> {
    if (this.#queued.length > 0) {
      const chunk = this.#queued.shift()!;
      // The settled call's last chunk (its finish) is handed out: the call has succeeded, whether or
      // not its consumer reads on (one that stops on the finish has not abandoned the call).
      if (this.#queued.length === 0 && this.#output && this.#end) this.#finish(this.#output);
      return { done: false, value: chunk };
    }
    if (this.#ended) return { done: true, value: undefined as never };
    if (this.#output) return this.#finish(this.#output);
    if (this.#stopped) return this.#closeAttempt().then(() => this.#finish(this.#partialOutput()));
    if (!this.#iterator) return this.#open();
    const first = this.#first;
    if (first) {
      this.#first = undefined;
      return this.#onResult(first);
    }
    const iterator = this.#iterator;
    return isChunkReader(iterator)
      ? iterator.readNext(this.#onResult, this.#onError)
      : iterator.next().then(this.#onResult, this.#onError);
  }

  /** Sends the next attempt (with transport retries until its first chunk) and reads on. */
  #open(): Promise<Result> {
    const state = this.#state;
    const opened = requestWithRetry({
      host: this.#host,
      state,
      guidance: this.#guidance,
      signal: this.#linked.signal,
      send: async (input, context) => {
        const iterator = this.#host.requestStream(input, context)[Symbol.asyncIterator]();
        return { iterator, first: await iterator.next() };
      },
    });
    return opened.then(({ iterator, first }) => {
      // After the request: a refused tool_choice learned on the way may have moved the call to another rung.
      this.#holdBack = state.call.plan.readsUnion || state.call.rules.structureTool !== undefined;
      this.#assembler = new StreamAssembler();
      this.#iterator = iterator;
      this.#first = first;
      return this.#step();
    }, this.#fail);
  }

  readonly #onResult = (result: IteratorResult<ChatModelChunk>): Result | Promise<Result> => {
    if (result.done) {
      this.#iterator = undefined;
      return this.#endAttempt();
    }
    const chunk = result.value;
    try {
      this.#assembler.add(chunk);
    } catch (error) {
      // A chunk the assembler cannot take (an outside adapter's): the attempt fails like a read error.
      return this.#onError(error);
    }
    if (isDelta(chunk) && !(this.#holdBack && chunk.type !== "reasoning-delta")) {
      const emitter = this.#host.emitter;
      if (emitter.listensForTokens)
        emitter.emit("newToken", { input: this.#call.input, callId: this.#call.callId, chunk, abort: this.#stop });
      return result as Result;
    }
    return this.#step();
  };

  readonly #onError = (error: unknown): Promise<Result> =>
    this.#closeAttempt().then(() => {
      if (this.#stopped) return this.#finish(this.#partialOutput());
      const signal = this.#linked.signal;
      if (signal.aborted || isAbortError(error)) return this.#fail(abortError(signal));
      if (ProviderError.isInstance(error)) Object.assign(error, { partialOutput: this.#brokenOutput() });
      return this.#fail(error);
    });

  /** The attempt's chunks ran out: settle it, then hand out its calls and finish, or a reset and the re-ask. */
  #endAttempt(): Result | Promise<Result> {
    if (this.#stopped) return this.#finish(this.#partialOutput());
    // Some SDKs end a stream quietly when its signal aborts (openai, the AWS event stream): an abort, not a finish.
    if (this.#linked.signal.aborted) return this.#fail(abortError(this.#linked.signal));
    let settled: ReturnType<typeof settleAttempt>;
    try {
      settled = settleAttempt(this.#host, this.#state.call, this.#assembler.output(), this.#attempts, this.#repairs);
    } catch (error) {
      return this.#fail(error);
    }
    if (settled.output) {
      // Held back, the reply's text (a structured answer carried by a forced tool) comes whole, as its calls do.
      if (this.#holdBack && settled.output.text !== "")
        this.#queued.push({ type: "text-delta", text: settled.output.text });
      for (const toolCall of settled.output.toolCalls) this.#queued.push({ type: "tool-call", toolCall });
      this.#queued.push({ type: "finish", finishReason: settled.output.finishReason, usage: settled.output.usage });
      this.#output = settled.output;
    } else {
      this.#guidance = settled.guidance;
      this.#repairs++;
      this.#queued.push({ type: "reset", reason: settled.error.message });
    }
    return this.#step();
  }

  #finish(output: ChatModelOutput): Result {
    this.#ended = true;
    if (!this.#end) return { done: true, value: output };
    this.#end.succeed(output);
    return { done: true, value: undefined as never };
  }

  readonly #fail = (error: unknown): never => {
    this.#ended = true;
    throw this.#end ? this.#end.fail(error) : error;
  };

  /** Lets go of the open attempt's stream, if any (what it throws on the way out does not matter). */
  #closeAttempt(): Promise<void> {
    const iterator = this.#iterator;
    this.#iterator = undefined;
    this.#first = undefined;
    if (!iterator?.return) return Promise.resolve();
    return iterator.return().then(
      () => undefined,
      () => undefined,
    );
  }

  /** What a broken attempt delivered; without the provider's finish it ends "error", never as a finished reply. */
  #brokenOutput(): ProviderOutput {
    const assembler = this.#assembler;
    return { ...assembler.output(), finishReason: assembler.finishReason ?? "error" };
  }

  /** The output of a stream a `newToken` listener stopped: what arrived, unvalidated, finish reason "other". */
  #partialOutput(): ChatModelOutput {
    return partialOutput(this.#assembler.output(), this.#state.call, this.#attempts);
  }
}
