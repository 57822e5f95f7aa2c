import { abortError, isAbortError, type CallSignal } from "../../internal/abort.js";
import type { CallDependencies } from "./call-dependencies.js";
import { ProviderError } from "../errors/provider-error.js";
import type { ChatModelInput, ProviderInput, RunContext } from "../input.js";
import type { ChatModelOutput } from "../output.js";
import { isDelta, type ChatModelChunk } from "../stream/chat-model-chunk.js";
import { readThen, type ChainedReads } from "../stream/chunk-stream.js";
import { StreamAssembler } from "../stream/stream-assembler.js";
import type { TextCallHoldBack } from "../stream/text-call-hold-back.js";

/** The call an attempt's chunks belong to, as its `newToken` events name it. */
interface CallRef {
  readonly input: ChatModelInput;
  readonly callId: number;
}

/** A streamed call's run (runCall with `streamed: true`): its own chunks and each streamed attempt, then the output. */
export type CallRun = AsyncGenerator<ChatModelChunk | StreamedAttempt, ChatModelOutput, undefined>;
type ChunkRead = IteratorResult<ChatModelChunk, ChatModelOutput>;

/** A streamed runCall's chunks, for a ChatModelStream (or the cache), which reads them one at a time. */
export function callChunks(run: CallRun): ChainedReads<ChatModelChunk, ChatModelOutput> {
  return new CallChunks(run);
}

type Took = (result: ChunkRead) => unknown;
type Threw = (error: unknown) => unknown;
const same: Took = (result) => result;
const rethrow: Threw = (error) => {
  throw error;
};

/**
 * runCall resumed between attempts, and each attempt's chunks read straight from the provider's
 * stream: runCall yielding each chunk itself, a generator level per chunk, cost an Ollama stream 5 %
 * of its instructions (4592k → 4377k, npm run bench:instructions). The reader's handlers are handed
 * down (nextThen): a chunk meets them in the step that read it from the adapter's chunkStream. Reads
 * do not overlap (a ChatModelStream orders them).
 */
class CallChunks implements ChainedReads<ChatModelChunk, ChatModelOutput> {
  readonly #run: CallRun;
  /** The attempt whose chunks are being read. */
  #attempt: StreamedAttempt | undefined;
  /** The handlers of the read in flight. */
  #done: Took = same;
  #failed: Threw = rethrow;

  constructor(run: CallRun) {
    this.#run = run;
  }

  next(): Promise<ChunkRead> {
    return this.nextThen(same, rethrow) as Promise<ChunkRead>;
  }

  nextThen<U>(
    took: (result: ChunkRead) => U | PromiseLike<U>,
    threw: (error: unknown) => U | PromiseLike<U>,
  ): Promise<U> {
    this.#done = took;
    this.#failed = threw;
    return this.#read() as Promise<U>;
  }

  /** The consumer stops: runCall lets go of the attempt it is reading (its `finally`, which yields nothing). */
  return(): Promise<ChunkRead> {
    this.#attempt = undefined;
    return this.#run.return(undefined as never) as Promise<ChunkRead>;
  }

  #read(): Promise<unknown> {
    const attempt = this.#attempt;
    if (attempt === undefined) return this.#run.next().then(this.#passed, this.#failed);
    // A `newToken` listener stopped the call: runCall ends it with what arrived.
    if (attempt.stopped) return this.#resume();
    return readThen(attempt.chunks, this.#took, this.#threw);
  }

  /** What runCall passed: a chunk of its own, an attempt to read (its first chunk read already), or the output. */
  readonly #passed = (result: IteratorResult<ChatModelChunk | StreamedAttempt, ChatModelOutput>): unknown => {
    if (result.done || !(result.value instanceof StreamedAttempt)) return this.#done(result as ChunkRead);
    this.#attempt = result.value;
    return this.#took(result.value.first);
  };

  /** An attempt's chunk: handed out when it is shown; the attempt's end resumes runCall. */
  readonly #took = (result: IteratorResult<ChatModelChunk, undefined>): unknown => {
    const attempt = this.#attempt;
    if (attempt === undefined) return this.#done({ done: true, value: undefined as never });
    if (result.done) {
      attempt.ranOut = true;
      return this.#resume();
    }
    let shown: ChatModelChunk | undefined;
    try {
      shown = attempt.shows(result.value);
    } catch (error) {
      // A chunk the reply cannot take (an outside adapter's): the read failed.
      return this.#threw(error);
    }
    if (shown === undefined) return this.#read();
    return this.#done(shown === result.value ? result : { done: false, value: shown });
  };

  /** A failed read: a stopped call's end, else runCall's error (the ProviderError carrying what arrived). */
  readonly #threw = (error: unknown): unknown => {
    const attempt = this.#attempt;
    if (attempt === undefined) return this.#failed(error);
    if (attempt.stopped) return this.#resume();
    this.#attempt = undefined;
    return this.#run.throw(attempt.failure(error)).then(this.#passed, this.#failed);
  };

  #resume(): Promise<unknown> {
    this.#attempt = undefined;
    return this.#run.next().then(this.#passed, this.#failed);
  }
}

/**
 * One streamed attempt, as runCall reads it: opened with transport retries (until its first chunk),
 * its chunks assembled into the reply, its deltas shown as they arrive (on the tool-union rungs the
 * raw JSON is held back). A `newToken` listener's abort() stops the call with what arrived; a read
 * that fails after chunks went out is not retried: a ProviderError carries them.
 */
export class StreamedAttempt {
  readonly assembler = new StreamAssembler();
  /** A `newToken` listener called abort(). */
  stopped = false;
  /** The provider's stream ran out: nothing to let go of. */
  ranOut = false;
  /** The provider's stream, once open, and its first chunk. */
  chunks!: AsyncIterator<ChatModelChunk, undefined>;
  first!: IteratorResult<ChatModelChunk, undefined>;
  #call: CallRef | undefined;
  #holdBack = false;
  #textCalls: TextCallHoldBack | undefined;
  readonly #model: Pick<CallDependencies, "emitter" | "provider">;
  readonly #linked: CallSignal;

  constructor(model: Pick<CallDependencies, "emitter" | "provider">, linked: CallSignal) {
    this.#model = model;
    this.#linked = linked;
  }

  /** Opens the provider's stream and reads its first chunk (send retries both). */
  readonly open = async (input: ProviderInput, context: RunContext) => {
    const chunks = this.#model.provider.stream(input, context)[Symbol.asyncIterator]();
    return { chunks, first: await chunks.next() };
  };

  /** Lets go of the provider's stream (what it throws on the way out does not matter). */
  async letGo(): Promise<void> {
    await this.chunks?.return?.().catch(() => undefined);
  }

  /**
   * The stream opened, and the call its reply is read for (the one sent, once send has learned from
   * a refusal on the way): `holdBack` on the tool-union rungs, where only reasoning is shown.
   */
  readsFor(
    call: CallRef,
    holdBack: boolean,
    opened: Awaited<ReturnType<StreamedAttempt["open"]>>,
    textCalls?: TextCallHoldBack,
  ): void {
    this.#call = call;
    this.#holdBack = holdBack;
    this.#textCalls = textCalls;
    this.chunks = opened.chunks;
    this.first = opened.first;
  }

  /** The text held back while it might be tool calls written as text (`textCalls`), handed out once. */
  heldText(): string {
    return this.#textCalls?.release() ?? "";
  }

  /** Takes one chunk into the reply: what the caller sees of it, if anything (a `newToken` for each one seen). */
  shows(chunk: ChatModelChunk): ChatModelChunk | undefined {
    this.assembler.add(chunk);
    if (!isDelta(chunk) || (this.#holdBack && chunk.type !== "reasoning-delta")) return undefined;
    if (this.#textCalls !== undefined && chunk.type === "text-delta") {
      const shown = this.#textCalls.shown(chunk);
      if (shown === undefined) return undefined;
      chunk = shown;
    }
    const { emitter } = this.#model;
    if (emitter.listens("newToken")) {
      const { input, callId } = this.#call!;
      emitter.emit("newToken", { input, callId, chunk, abort: this.#stop });
    }
    return chunk;
  }

  readonly #stop = () => {
    this.stopped = true;
    this.#linked.abort();
  };

  /** The error a failed read ends the call with: the abort, or the provider's error carrying what arrived. */
  failure(error: unknown): unknown {
    const { signal } = this.#linked;
    if (signal.aborted || isAbortError(error)) return abortError(signal);
    // Without the provider's finish it ends "error", never as a finished reply.
    if (ProviderError.isInstance(error))
      Object.assign(error, {
        partialOutput: { ...this.assembler.output(), finishReason: this.assembler.finishReason ?? "error" },
      });
    return error;
  }
}
