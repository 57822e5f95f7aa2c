import { ChatModel, providerOf } from "../../core/model/chat-model.js";
import type { ChatModelOptions } from "../../core/model/chat-model-options.js";
import type { ProviderInput, RunContext } from "../../core/input.js";
import type { ProviderOutput } from "../../core/output.js";
import type { ChatModelChunk } from "../../core/stream/chat-model-chunk.js";
import { optionsOf, profileOf, settingsOf } from "./cassette-settings.js";
import type { Cassette, CassetteInteraction } from "./cassette.js";
import { writeCassette } from "./cassette.js";
import { modelCredentials } from "../../internal/model-credentials.js";
import { definedFields } from "../../internal/defined-fields.js";
import { recordingMiddleware } from "./recording-middleware.js";

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
 * scrubbed of every credential the wrapped model holds (whatever its shape: a 64-hex Together key,
 * an Azure key, AWS secret keys and session tokens) and of key-shaped text before it is written.
 * The recording is the innermost middleware of
 * this model (`recordingMiddleware`); its requests go to the wrapped model's provider, through the
 * wrapped model's own middleware.
 */
export class RecordingChatModel extends ChatModel {
  readonly providerId: string;
  readonly inner: ChatModel;
  readonly cassettePath: string;

  constructor(inner: ChatModel, options: RecordingChatModelOptions) {
    const { cassette, secrets = [], middleware = [], ...rest } = options;
    // A maxRetries given here is the retry count (the inner model's is then not passed beside it).
    const { maxRetries: _innerMaxRetries, ...innerRetry } = inner.retry;
    const retry = rest.maxRetries === undefined ? { ...inner.retry } : innerRetry;
    if (typeof cassette !== "string" || cassette === "")
      throw new TypeError("RecordingChatModel needs { cassette: <file path> }.");
    const recorded: Cassette = {
      version: 1,
      providerId: inner.providerId,
      modelId: inner.modelId,
      profile: profileOf(inner),
      settings: settingsOf(inner), // replaced by this model's own once it is built
      interactions: [],
    };
    const record = (input: ProviderInput, answer: Omit<CassetteInteraction, "input">) => {
      const { signal: _signal, ...sent } = input;
      recorded.interactions.push({ input: structuredClone(sent), ...structuredClone(answer) });
      // Every credential the wrapped model holds now, whatever its shape, besides the shapes keelson knows.
      writeCassette(cassette, recorded, [...secrets, ...modelCredentials(inner)]);
    };
    // The wrapped model's settings (default parameters, parallel calls, repair, retries) unless overridden.
    super(
      inner.modelId,
      {
        ...optionsOf(settingsOf(inner)),
        retry,
        ...definedFields(rest),
        middleware: [...middleware, recordingMiddleware(record)],
      },
      profileOf(inner),
    );
    this.providerId = inner.providerId;
    this.inner = inner;
    this.cassettePath = cassette;
    recorded.settings = settingsOf(this);
  }

  protected override get endpoint(): string {
    return providerOf(this.inner).endpoint;
  }

  /** What the wrapped model's provider refused is learned for the wrapped model's scope too. */
  protected override get capabilityScope(): string {
    return providerOf(this.inner).scope.scope;
  }

  protected override _create(input: ProviderInput, context: RunContext): Promise<ProviderOutput> {
    return providerOf(this.inner).provider.create(input, context);
  }

  protected override _createStream(input: ProviderInput, context: RunContext): AsyncIterable<ChatModelChunk> {
    return providerOf(this.inner).provider.stream(input, context);
  }
}
