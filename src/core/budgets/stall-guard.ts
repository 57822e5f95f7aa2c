import { eitherSignal } from "../../internal/abort.js";
import { withTimeout } from "../../internal/with-timeout.js";
import { ProviderError } from "../errors/provider-error.js";
import type { ProviderInput, RunContext } from "../input.js";
import type { ProviderOutput } from "../output.js";
import type { ChatModelChunk } from "../stream/chat-model-chunk.js";
import type { ReadTimeout } from "./call-timeout.js";

/** A model's requests to its adapter (as core/model's bridge sends them). */
export interface GuardedRequests {
  request(input: ProviderInput, context: RunContext): Promise<ProviderOutput>;
  requestStream(input: ProviderInput, context: RunContext): AsyncIterable<ChatModelChunk>;
}

/** Who is stalling, for the error's message and fields. */
interface StallingModel {
  readonly providerId: string;
  readonly modelId: string;
}

/** Past a timer's range a bound is no bound (24.8 days). */
const longestTimer = 2_147_483_647;

/**
 * A model's requests held to their call's `firstChunkMs` and `chunkMs` (`timeoutOf` reads the call's
 * timeout at each request). A request that shows nothing visible in time is stopped (its own signal
 * aborted, never the call's) and fails with a retryable `ProviderError` (`code: "stalled"`); a stream
 * silent for `chunkMs` after it showed something fails the same way, not retryable (the caller saw
 * tokens: the call's reader attaches them as `partialOutput`). A call without either bound is sent
 * as it is.
 */
export function stallGuarded(
  requests: GuardedRequests,
  model: StallingModel,
  timeoutOf: (context: RunContext) => ReadTimeout,
): GuardedRequests {
  return {
    request: (input, context) => {
      const { firstChunkMs } = timeoutOf(context);
      if (!bounded(firstChunkMs)) return requests.request(input, context);
      const stop = new AbortController();
      const sent = requests.request(input, { ...context, signal: eitherSignal(context.signal, stop.signal) });
      return withTimeout(sent, firstChunkMs, () => {
        stop.abort();
        return stalled(model, `sent no reply within timeout.firstChunkMs (${firstChunkMs} ms)`, true);
      });
    },
    requestStream: (input, context) => {
      const timeout = timeoutOf(context);
      if (!bounded(timeout.firstChunkMs) && !bounded(timeout.chunkMs)) return requests.requestStream(input, context);
      return { [Symbol.asyncIterator]: () => new GuardedChunks(requests, input, context, timeout, model) };
    },
  };
}

/**
 * An adapter's stream, read against the clock: its first `next()` reads on past chunks nothing
 * shows (held, then handed out in order) until one that does, within `firstChunkMs` of the request;
 * after that each read must bring something visible within `chunkMs` of the last one that did.
 */
class GuardedChunks implements AsyncIterator<ChatModelChunk, undefined> {
  readonly #inner: AsyncIterator<ChatModelChunk, undefined>;
  readonly #stop = new AbortController();
  readonly #held: IteratorResult<ChatModelChunk, undefined>[] = [];
  readonly #timeout: ReadTimeout;
  readonly #model: StallingModel;
  /** When the silence being timed ends the stream (`performance.now()`), or none. */
  #deadline: number | undefined;
  #shown = false;

  constructor(
    requests: GuardedRequests,
    input: ProviderInput,
    context: RunContext,
    timeout: ReadTimeout,
    model: StallingModel,
  ) {
    this.#timeout = timeout;
    this.#model = model;
    this.#deadline = bounded(timeout.firstChunkMs) ? performance.now() + timeout.firstChunkMs : undefined;
    const signal = eitherSignal(context.signal, this.#stop.signal);
    this.#inner = requests.requestStream(input, { ...context, signal })[Symbol.asyncIterator]();
  }

  async next(): Promise<IteratorResult<ChatModelChunk, undefined>> {
    const held = this.#held.shift();
    if (held !== undefined) return held;
    if (this.#shown || this.#deadline === undefined) return this.#read();
    // Before anything showed: read on, holding what does not show, until something does (or the end).
    for (;;) {
      const result = await this.#read();
      if (result.done || this.#shown) {
        this.#held.push(result);
        return this.#held.shift()!;
      }
      this.#held.push(result);
    }
  }

  async return(): Promise<IteratorResult<ChatModelChunk, undefined>> {
    await this.#inner.return?.();
    return { done: true, value: undefined };
  }

  /** One read of the adapter's stream, failed as stalled when the silence outlasts its bound. */
  async #read(): Promise<IteratorResult<ChatModelChunk, undefined>> {
    const deadline = this.#deadline;
    const next = this.#inner.next();
    const result =
      deadline === undefined ? await next : await withTimeout(next, deadline - performance.now(), this.#stall);
    if (!result.done && visible(result.value)) {
      this.#shown = true;
      const { chunkMs } = this.#timeout;
      this.#deadline = bounded(chunkMs) ? performance.now() + chunkMs : undefined;
    }
    return result;
  }

  readonly #stall = (): ProviderError => {
    this.#stop.abort();
    // What the adapter's stream throws as it stops no longer matters.
    this.#inner.return?.().catch(() => undefined);
    const { firstChunkMs, chunkMs } = this.#timeout;
    return this.#shown
      ? stalled(this.#model, `went silent for longer than timeout.chunkMs (${chunkMs} ms) mid-stream`, false)
      : stalled(this.#model, `streamed nothing visible within timeout.firstChunkMs (${firstChunkMs} ms)`, true);
  };
}

/** What shows progress: text, reasoning or a tool call being written (not keep-alives, usage or empty deltas). */
function visible(chunk: ChatModelChunk): boolean {
  switch (chunk.type) {
    case "text-delta":
      return chunk.text !== "";
    case "reasoning-delta":
      return chunk.text !== "" || chunk.redactedData !== undefined;
    case "tool-call-delta":
    case "tool-call":
      return true;
    default:
      return false;
  }
}

function bounded(ms: number | undefined): ms is number {
  return ms !== undefined && ms < longestTimer;
}

function stalled(model: StallingModel, what: string, retryable: boolean): ProviderError {
  const next = retryable
    ? "It is retried like a timeout, and withFallbacks moves on to the next model"
    : "What arrived is the error's partialOutput; retrying is the caller's choice";
  return new ProviderError(`${model.providerId} ${model.modelId} ${what}: the request stalled. ${next}.`, {
    reason: "timeout",
    code: "stalled",
    isRetryable: retryable,
    providerId: model.providerId,
    modelId: model.modelId,
  });
}
