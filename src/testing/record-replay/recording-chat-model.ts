import { ChatModel } from "../../core/model/chat-model.js";
import type { ChatModelOptions } from "../../core/model/chat-model-options.js";
import { ProviderError } from "../../core/errors/provider-error.js";
import type { ProviderInput, RunContext } from "../../core/input.js";
import type { ProviderOutput } from "../../core/output.js";
import type { ChatModelChunk } from "../../core/stream/chat-model-chunk.js";
import { hooksOf, optionsOf, profileOf, settingsOf } from "./adapter-hooks.js";
import type { Cassette, CassetteInteraction } from "./cassette.js";
import { writeCassette } from "./cassette.js";
import { definedFields } from "../../internal/defined-fields.js";

export interface RecordingChatModelOptions extends ChatModelOptions {
  /** Where the cassette is written (JSON). It is rewritten after every exchange. */
  cassette: string;
  /** Strings to scrub from the cassette besides the credential shapes keelson knows (e.g. a gateway token). @default [] */
  secrets?: string[] | undefined;
}

/**
 * Wraps a real model and writes every exchange with its provider — the provider input, and the
 * output (streams as their chunks) or the error — to a cassette file, for `ReplayChatModel` to play
 * back offline. Cassettes never contain credentials: provider inputs carry none, and every string is
 * scrubbed of key-shaped text before it is written.
 */
export class RecordingChatModel extends ChatModel {
  readonly providerId: string;
  readonly inner: ChatModel;
  readonly cassettePath: string;
  private readonly cassette: Cassette;
  private readonly secrets: string[];

  constructor(inner: ChatModel, options: RecordingChatModelOptions) {
    const { cassette, secrets = [], ...rest } = options;
    // The wrapped model's settings (default parameters, parallel calls, repair, retries) unless overridden.
    // A maxRetries given here is the retry count (the inner model's is then not passed beside it).
    const { maxRetries: _innerMaxRetries, ...innerRetry } = inner.retry;
    const retry = rest.maxRetries === undefined ? { ...inner.retry } : innerRetry;
    super(inner.modelId, { ...optionsOf(settingsOf(inner)), retry, ...definedFields(rest) }, profileOf(inner));
    if (typeof cassette !== "string" || cassette === "")
      throw new TypeError("RecordingChatModel needs { cassette: <file path> }.");
    this.providerId = inner.providerId;
    this.inner = inner;
    this.cassettePath = cassette;
    this.secrets = secrets;
    this.cassette = {
      version: 1,
      providerId: inner.providerId,
      modelId: inner.modelId,
      profile: profileOf(inner),
      settings: settingsOf(this),
      interactions: [],
    };
  }

  protected override get endpoint(): string {
    return hooksOf(this.inner).endpoint;
  }

  /** What the wrapped model's provider refused is learned for the wrapped model's scope too. */
  protected override get capabilityScope(): string {
    return hooksOf(this.inner).capabilityScope;
  }

  protected override async _create(input: ProviderInput, context: RunContext): Promise<ProviderOutput> {
    try {
      const output = await hooksOf(this.inner)._create(input, context);
      this.record(input, { output: { ...output, raw: output.raw } });
      return output;
    } catch (error) {
      this.record(input, { error: describeError(error) });
      throw error;
    }
  }

  protected override async *_createStream(input: ProviderInput, context: RunContext): AsyncIterable<ChatModelChunk> {
    const chunks: ChatModelChunk[] = [];
    try {
      for await (const chunk of hooksOf(this.inner)._createStream(input, context)) {
        chunks.push(chunk);
        yield chunk;
      }
      this.record(input, { chunks });
    } catch (error) {
      this.record(input, { chunks, error: describeError(error) });
      throw error;
    }
  }

  private record(input: ProviderInput, answer: Omit<CassetteInteraction, "input">): void {
    const { signal: _signal, ...recorded } = input;
    this.cassette.interactions.push({ input: structuredClone(recorded), ...structuredClone(answer) });
    writeCassette(this.cassettePath, this.cassette, this.secrets);
  }
}

function describeError(error: unknown): NonNullable<CassetteInteraction["error"]> {
  const described: NonNullable<CassetteInteraction["error"]> = {
    name: error instanceof Error ? error.name : "Error",
    message: error instanceof Error ? error.message : String(error),
  };
  if (ProviderError.isInstance(error)) {
    if (error.statusCode !== undefined) described.statusCode = error.statusCode;
    if (error.code !== undefined) described.code = error.code;
    described.reason = error.reason;
    described.isRetryable = error.isRetryable;
    if (error.rejectedParameter !== undefined) described.rejectedParameter = { ...error.rejectedParameter };
  }
  return described;
}
