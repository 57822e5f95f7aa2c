import type OpenAI from "openai";
import { ChatModel } from "../../core/chat-model.js";
import type { ChatModelOptions } from "../../core/chat-model-options.js";
import type { ProviderErrorReason } from "../../core/errors/provider-error.js";
import type { ProviderInput, RunContext } from "../../core/input.js";
import type { ProviderOutput } from "../../core/output.js";
import type { ChatModelChunk } from "../../core/stream/chat-model-chunk.js";
import type { ToolChoiceMode } from "../../core/tool-choice/tool-choice-mode.js";
import { chunkStream } from "../../core/stream/chunk-stream.js";
import { lazyImport } from "../../internal/lazy-import.js";
import { createOpenAIClient, isOpenAIBaseURL, trimSlash } from "./create-openai-client.js";
import type { OpenAIConnection } from "./openai-calls.js";
import type { MaxTokensField } from "./to-openai-request.js";

// The request and response code loads on a model's first call: importing keelson and another
// adapter does not compile it.
const withCalls = lazyImport(() => import("./openai-calls.js"));

export interface OpenAIChatModelOptions extends ChatModelOptions {
  /** @default process.env.OPENAI_API_KEY */
  apiKey?: string;
  /**
   * An OpenAI-compatible endpoint (a gateway, vLLM, LiteLLM, …). A custom one drops `"required"`
   * from the default `toolChoiceSupport`, since many gateways refuse it; pass `toolChoiceSupport` to keep it.
   * @default process.env.OPENAI_BASE_URL ?? "https://api.openai.com/v1"
   */
  baseURL?: string;
  /** @default process.env.OPENAI_ORG_ID */
  organization?: string;
  /** Extra headers sent with every request. @default none */
  headers?: Record<string, string>;
  /**
   * A ready `openai` client, used as it is (`apiKey`, `baseURL`, `organization` and `headers` are
   * then ignored). Its own retries are turned off per request: keelson owns the retries, and the
   * SDK's would multiply them and hide each attempt. An ES-module app that imports `openai` itself passes its
   * client here: keelson's own is built from the SDK's CommonJS build, a second copy beside the app's.
   * @default a client built from the options above
   */
  client?: OpenAI;
  /**
   * The body field that carries `parameters.maxTokens`. OpenAI deprecated `max_tokens`, and its
   * reasoning models refuse it; most OpenAI-compatible servers know only `max_tokens`.
   * @default "max_completion_tokens" on api.openai.com, "max_tokens" on any other baseURL
   */
  maxTokensField?: MaxTokensField;
  /**
   * Send the reasoning of an assistant turn that made tool calls back, as OpenAI-compatible reasoning
   * servers require (DeepSeek's thinking mode and Kimi K2 answer 400 without it): as
   * `reasoning_content`, or as `reasoning` once the server's replies carry it there (Ollama's /v1 and
   * OpenRouter read no other). OpenAI's own API takes no reasoning back. A server that refuses the
   * field (Groq, Cerebras) gets it no more after its first refusal, and that request goes again at once without it.
   * @default true on any baseURL but OpenAI's (and Azure's)
   */
  sendReasoningContent?: boolean;
}

/**
 * A chat model on OpenAI's chat completions API (or any OpenAI-compatible endpoint), through the
 * `openai` SDK with its retries off: keelson's base class is the one retry owner.
 *
 * Profile: all four tool_choice values (`"required"` dropped for a custom baseURL); JSON-schema
 * structured output with `strict: true`, since only strict mode guarantees the reply matches the
 * schema (keelson sends strict-form schemas and removes the nulls it adds for optional fields;
 * set `strictResponseFormat: false` for a schema strict mode cannot express); an object at the
 * root of a response format, as the API demands.
 */
export class OpenAIChatModel extends ChatModel {
  readonly providerId: string = "openai";
  // Its requests never pass a call's signal to AbortSignal.any (see ChatModel).
  protected override readonly plainCallsShareInertSignal = true;
  /** The SDK client every request goes through. */
  readonly client: OpenAI;
  readonly maxTokensField: MaxTokensField;
  /** Whether tool-call turns carry their reasoning back as `reasoning_content` (see the option). */
  readonly sendReasoningContent: boolean;
  private connectionCache: OpenAIConnection | undefined;

  constructor(modelId: string, options: OpenAIChatModelOptions = {}) {
    const { apiKey, baseURL, organization, headers, client, maxTokensField, sendReasoningContent, ...rest } = options;
    const sdk = client ?? createOpenAIClient({ apiKey, baseURL, organization, headers });
    const isGateway = !isOpenAIBaseURL(sdk.baseURL);
    const toolChoiceSupport: ToolChoiceMode[] = isGateway
      ? ["auto", "none", "single"]
      : ["auto", "none", "required", "single"];
    super(modelId, rest, {
      toolChoiceSupport,
      supportsStructuredOutput: true,
      supportsTopLevelUnion: false,
      strictResponseFormat: true,
      // Chat Completions has no top_k (a gateway that takes one gets it through providerOptions).
      unsupportedParameters: ["topK"],
    });
    this.client = sdk;
    this.maxTokensField = maxTokensField ?? (isGateway ? "max_tokens" : "max_completion_tokens");
    this.sendReasoningContent = sendReasoningContent ?? isGateway;
  }

  protected override get endpoint(): string {
    return trimSlash(this.client.baseURL);
  }

  protected override _create(input: ProviderInput, context: RunContext): Promise<ProviderOutput> {
    return withCalls((calls) => calls.createOpenAIChat(this.connection(), input, context));
  }

  protected override _createStream(input: ProviderInput, context: RunContext): AsyncIterable<ChatModelChunk> {
    return chunkStream(() => withCalls((calls) => calls.openOpenAIStream(this.connection(), input, context)));
  }

  /** What to do next after an error, per reason, in this provider's words. */
  protected errorHints(): Partial<Record<ProviderErrorReason, string>> {
    return {
      authentication: "Check the API key (the apiKey option or OPENAI_API_KEY) and its project's access.",
      "not-found": `Check the model id '${this.modelId}' and that the key's project may use it.`,
    };
  }

  /** What the wire code calls with, built on the first call (a subclass's fields are set by then). */
  private connection(): OpenAIConnection {
    return (this.connectionCache ??= {
      client: this.client,
      providerId: this.providerId,
      modelId: this.modelId,
      maxTokensField: this.maxTokensField,
      errorHints: () => this.errorHints(),
      refused: {},
      reasoningContent: this.sendReasoningContent,
      replyFields: {},
    });
  }
}
