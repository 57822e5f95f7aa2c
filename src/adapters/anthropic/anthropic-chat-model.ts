import { noteModelCredentials } from "../../internal/model-credentials.js";
import { anthropicSecrets } from "./anthropic-secrets.js";
import type Anthropic from "@anthropic-ai/sdk";
import { ChatModel } from "../../core/model/chat-model.js";
import type { ProviderInput, RunContext } from "../../core/input.js";
import type { ProviderOutput } from "../../core/output.js";
import type { ChatModelChunk } from "../../core/stream/chat-model-chunk.js";
import { chunkStream } from "../../core/stream/chunk-stream.js";
import { guardedFetch } from "../../internal/guarded-fetch.js";
import { lazyImport } from "../../core/loading/lazy-import.js";
import { platformFetch } from "../../internal/platform-fetch.js";
import type { AnthropicConnection } from "./anthropic-calls.js";
import type { AnthropicChatModelOptions } from "./anthropic-chat-model-options.js";
import { loadAnthropicSDK } from "./load-anthropic-sdk.js";

// The request and response code loads on a model's first call: importing keelson and another
// adapter does not compile it.
const withCalls = lazyImport(() => import("./anthropic-calls.js"));

const anthropicBaseURL = "https://api.anthropic.com";

/**
 * Claude through Anthropic's Messages API (`@anthropic-ai/sdk`, its retries off).
 *
 * Profile: all four tool_choice values native (`auto`, `any` for "required", `tool` for one tool,
 * `none`), `parallelToolCalls: false` sent as `disable_parallel_tool_use`. No JSON-schema response
 * format is declared, since only the newest Claude models take one: structured output goes through
 * a forced tool or the tool-union rung, as the ladder picks. `supportsStructuredOutput: true` sends
 * it as `output_config.format` (Claude Sonnet 4.5, Opus 4.1 and later). Thinking (`providerOptions: { thinking: { type: "enabled", budget_tokens } }`)
 * comes back as reasoning parts with their signatures, and `redacted_thinking` as parts with
 * `redactedData`; both are sent back unchanged on the next turn. `providerOptions.cacheControl`
 * marks prompt-cache breakpoints (see `AnthropicCacheControl`).
 */
export class AnthropicChatModel extends ChatModel {
  readonly providerId = "anthropic";
  // Its requests never pass a call's signal to AbortSignal.any (see ChatModel).
  protected override readonly plainCallsShareInertSignal = true;
  /** The SDK client every request goes through. */
  readonly client: Anthropic;
  readonly defaultMaxTokens: number;
  private connectionCache: AnthropicConnection | undefined;

  constructor(modelId: string, options: AnthropicChatModelOptions = {}) {
    const { apiKey, baseURL, headers, defaultMaxTokens, client, ...common } = options;
    super(modelId, common, {
      toolChoiceSupport: ["auto", "none", "required", "single"],
      supportsStructuredOutput: false,
      supportsTopLevelUnion: false,
      // The Messages API has no seed or penalties; its effort travels as output_config.effort (providerOptions).
      unsupportedParameters: ["seed", "frequencyPenalty", "presencePenalty", "reasoningEffort"],
    });
    if (defaultMaxTokens !== undefined && !(Number.isInteger(defaultMaxTokens) && defaultMaxTokens > 0)) {
      throw new TypeError(`AnthropicChatModel: defaultMaxTokens must be a positive integer, got ${defaultMaxTokens}.`);
    }
    this.defaultMaxTokens = defaultMaxTokens ?? 4096;
    // A caller's client is an @anthropic-ai/sdk client, typed structurally in the options.
    this.client =
      (client as Anthropic | undefined) ?? createAnthropicClient(apiKey, baseURL, headers, this.maxResponseBytes);
    const held = this.client;
    noteModelCredentials(this, () => anthropicSecrets(held));
  }

  protected override get endpoint(): string {
    return this.client.baseURL.replace(/\/+$/, "");
  }

  protected override _create(input: ProviderInput, context: RunContext): Promise<ProviderOutput> {
    return withCalls((calls) => calls.createAnthropicMessage(this.connection(), input, context));
  }

  protected override _createStream(input: ProviderInput, context: RunContext): AsyncIterable<ChatModelChunk> {
    return chunkStream(() => withCalls((calls) => calls.openAnthropicStream(this.connection(), input, context)));
  }

  /** Anthropic's count_tokens endpoint: the exact input tokens of a request. */
  protected override _countTokens(input: ProviderInput): Promise<number | undefined> {
    return withCalls((calls) => calls.countAnthropicTokens(this.connection(), input));
  }

  /** What the wire code calls with, built on the first call. */
  private connection(): AnthropicConnection {
    return (this.connectionCache ??= {
      client: this.client,
      modelId: this.modelId,
      defaultMaxTokens: this.defaultMaxTokens,
    });
  }
}

function createAnthropicClient(
  apiKey: string | undefined,
  baseURL: string | undefined,
  headers: Record<string, string> | undefined,
  maxResponseBytes: number,
): Anthropic {
  const key = apiKey ?? env("ANTHROPIC_API_KEY");
  if (key === undefined) {
    throw new TypeError("AnthropicChatModel needs an API key: pass { apiKey } or set ANTHROPIC_API_KEY.");
  }
  const { Anthropic: AnthropicClient } = loadAnthropicSDK();
  return new AnthropicClient({
    apiKey: key,
    baseURL: baseURL ?? env("ANTHROPIC_BASE_URL") ?? anthropicBaseURL,
    // keelson's base class owns retries; the SDK's would multiply every attempt.
    maxRetries: 0,
    ...(headers === undefined ? {} : { defaultHeaders: headers }),
    // The platform fetch (redirects kept to http(s), credentials to their origin), bodies capped,
    // and a stream answered with a web page refused.
    fetch: guardedFetch(platformFetch(Object.keys(headers ?? {})), maxResponseBytes),
  });
}

/** An environment variable, an empty one as unset. */
function env(name: string): string | undefined {
  const value = process.env[name];
  return value === undefined || value === "" ? undefined : value;
}
