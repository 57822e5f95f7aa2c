import { ContextOverflowError } from "./context-overflow-error.js";
import { contextLengthRefusal } from "./context-length-refusal.js";
import type { ProviderInput, RunContext } from "../input.js";
import type { ProviderOutput } from "../output.js";
import {
  correctedEstimate,
  estimateInputTokens,
  learnInputTokens,
  ratioEstimate,
} from "../profiles/estimate-input-tokens.js";
import type { ModelProfile } from "../profiles/model-profile.js";
import type { ChatModelChunk } from "../stream/chat-model-chunk.js";
import { readThen, type ChainedReads } from "../stream/chunk-stream.js";
import type { GuardedRequests } from "./stall-guard.js";

/** The model a request is checked against. */
interface CheckedModel {
  readonly providerId: string;
  readonly modelId: string;
  readonly profile: ModelProfile;
}

/** The calls already warned that their maxTokens was clamped (one warning per call, whatever its attempts). */
const warned = new WeakSet<object>();

/**
 * A model's requests checked against its context window before they are sent, where the window is
 * known: input whose estimate fills the window is a `ContextOverflowError` (no request is made); a
 * `maxTokens` that does not fit beside the input is clamped to what does (`warn` once per call).
 * Every request's reported input tokens correct later estimates for the same model; a provider's
 * context-length 400 becomes the same `ContextOverflowError`.
 */
export function preflightGuarded(
  requests: GuardedRequests,
  model: CheckedModel,
  warn: (context: RunContext, message: string) => void,
): GuardedRequests {
  /** The request as sent: at once where it is far from the window (no frame lost to an await), else once estimated. */
  const checked = (input: ProviderInput, context: RunContext): ProviderInput | Promise<ProviderInput> => {
    const { contextWindow } = model.profile;
    if (contextWindow === undefined) return input;
    // The cheap estimate first: far from the window (under half of it), the tokenizer is not loaded.
    const rough = correctedEstimate(model, input);
    if (2 * (rough + (input.parameters.maxTokens ?? 0)) < contextWindow) return input;
    return estimated(input, context, contextWindow);
  };
  const estimated = async (
    input: ProviderInput,
    context: RunContext,
    contextWindow: number,
  ): Promise<ProviderInput> => {
    const maxTokens = input.parameters.maxTokens;
    const inputTokens = await estimateInputTokens(model, input);
    const name = `${model.providerId} ${model.modelId}`;
    if (inputTokens >= contextWindow) {
      throw new ContextOverflowError(
        `The input of this call (about ${inputTokens} tokens, estimated) does not fit ${name}'s context window of ${contextWindow} tokens: no request was sent. Shorten or summarise the messages, or use a model with a larger window (the contextWindow option sets a window keelson does not know).`,
        { inputTokens, contextWindow, maxTokens, providerId: model.providerId, modelId: model.modelId },
      );
    }
    if (maxTokens === undefined || inputTokens + maxTokens <= contextWindow) return input;
    const fits = contextWindow - inputTokens;
    const key = context.call?.input ?? input;
    if (!warned.has(key)) {
      warned.add(key);
      warn(
        context,
        `maxTokens ${maxTokens} does not fit beside this call's input (about ${inputTokens} tokens) in ${name}'s context window of ${contextWindow}: sent as ${fits}.`,
      );
    }
    return { ...input, parameters: { ...input.parameters, maxTokens: fits } };
  };
  return {
    request: (input, context) => {
      const send = (sent: ProviderInput) =>
        requests.request(sent, context).then(
          (output: ProviderOutput) => {
            learn(model, sent, output.usage?.inputTokens);
            return output;
          },
          (error: unknown) => {
            throw contextLengthRefusal(error, sent.parameters.maxTokens);
          },
        );
      const sent = checked(input, context);
      return sent instanceof Promise ? sent.then(send) : send(sent);
    },
    requestStream: (input, context) => ({
      [Symbol.asyncIterator]: () => new LearningChunks(model, input, context, requests, checked),
    }),
  };
}

/** Reported input tokens taken in against the request's ratio estimate. */
function learn(model: CheckedModel, input: ProviderInput, reported: number | undefined): void {
  if (reported !== undefined && reported > 0) learnInputTokens(model, ratioEstimate(model, input), reported);
}

/** An adapter's stream opened once its request is checked, whose usage reports are learned from. */
class LearningChunks implements ChainedReads<ChatModelChunk, undefined> {
  #inner: AsyncIterator<ChatModelChunk, undefined> | undefined;
  #sent: ProviderInput;
  /** A chunk came: the stream is past its opening. */
  #read = false;
  readonly #model: CheckedModel;
  readonly #open: () => Promise<AsyncIterator<ChatModelChunk, undefined>>;

  constructor(
    model: CheckedModel,
    input: ProviderInput,
    context: RunContext,
    requests: GuardedRequests,
    checked: (input: ProviderInput, context: RunContext) => ProviderInput | Promise<ProviderInput>,
  ) {
    this.#model = model;
    this.#sent = input;
    const sent = checked(input, context);
    if (sent instanceof Promise) sent.catch(() => undefined);
    else this.#inner = requests.requestStream(sent, context)[Symbol.asyncIterator]();
    this.#open = async () => {
      this.#sent = await sent;
      return requests.requestStream(this.#sent, context)[Symbol.asyncIterator]();
    };
  }

  next(): Promise<IteratorResult<ChatModelChunk, undefined>> {
    // Once open, one `then` per chunk: no async frame of its own.
    const inner = this.#inner;
    if (inner === undefined)
      return this.#open().then((opened) => (this.#inner = opened).next().then(this.#see, this.#failed));
    return inner.next().then(this.#see, this.#failed);
  }

  /** The adapter's chained read, kept (see ChainedReads): the chunk meets `took` in the step that read it. */
  nextThen<U>(
    took: (result: IteratorResult<ChatModelChunk, undefined>) => U | PromiseLike<U>,
    threw: (error: unknown) => U | PromiseLike<U>,
  ): Promise<U> {
    const inner = this.#inner;
    if (inner === undefined) return this.next().then(took, threw);
    return readThen(
      inner,
      (result) => took(this.#see(result)),
      (error) => threw(this.#refusal(error)),
    );
  }

  /** A usage report (or a finish carrying one) taken in against the request's ratio estimate. */
  readonly #see = (result: IteratorResult<ChatModelChunk, undefined>) => {
    this.#read = true;
    if (!result.done && (result.value.type === "usage" || result.value.type === "finish"))
      learn(this.#model, this.#sent, result.value.usage?.inputTokens);
    return result;
  };

  readonly #failed = (error: unknown): never => {
    throw this.#refusal(error);
  };

  /** A context-length refusal, as the stream opens (mid-stream, an error keeps what arrived: see StreamedAttempt). */
  #refusal(error: unknown): unknown {
    return this.#read ? error : contextLengthRefusal(error, this.#sent.parameters.maxTokens);
  }

  async return(): Promise<IteratorResult<ChatModelChunk, undefined>> {
    await this.#inner?.return?.();
    return { done: true, value: undefined };
  }
}
