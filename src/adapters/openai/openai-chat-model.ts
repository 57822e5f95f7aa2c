import { issuedCredentials } from "../../internal/issued-credentials.js";
import { noteModelCredentials } from "../../internal/model-credentials.js";
import type OpenAI from "openai";
import { ChatModel } from "../../core/model/chat-model.js";
import type { ProviderErrorReason } from "../../core/errors/provider-error.js";
import type { ProviderInput, RunContext } from "../../core/input.js";
import type { ProviderOutput, ToolChoiceRung } from "../../core/output.js";
import type { ChatModelChunk } from "../../core/stream/chat-model-chunk.js";
import type { ToolChoiceMode } from "../../core/tool-choice/tool-choice-mode.js";
import { chunkStream } from "../../core/stream/chunk-stream.js";
import { lazyImport } from "../../core/loading/lazy-import.js";
import { checkMaxResponseBytes } from "../../internal/max-response-bytes.js";
import { createOpenAIClient, isOpenAIBaseURL, trimSlash } from "./create-openai-client.js";
import type { OpenAIConnection } from "./openai-calls.js";
import type { MaxTokensField } from "./to-openai-request.js";
import type { OpenAIChatModelOptions } from "./openai-chat-model-options.js";

export type { OpenAIChatModelOptions } from "./openai-chat-model-options.js";

// The request and response code loads on a model's first call: importing keelson and another
// adapter does not compile it.
const withCalls = lazyImport(() => import("./openai-calls.js"));

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
  /** The custom baseURL whose default profile left `"required"` out (not when `toolChoiceSupport` was given). */
  private readonly requiredDroppedFor: string | undefined;

  constructor(modelId: string, options: OpenAIChatModelOptions = {}) {
    const { apiKey, baseURL, organization, headers, client, maxTokensField, sendReasoningContent, ...rest } = options;
    const sdk =
      (client as OpenAI | undefined) ??
      createOpenAIClient({
        apiKey,
        baseURL,
        organization,
        headers,
        maxResponseBytes: checkMaxResponseBytes(rest.maxResponseBytes),
      });
    const isGateway = !isOpenAIBaseURL(sdk.baseURL);
    const toolChoiceSupport: ToolChoiceMode[] = isGateway
      ? ["auto", "none", "single"]
      : ["auto", "none", "required", "single"];
    super(modelId, rest, {
      toolChoiceSupport,
      supportsStructuredOutput: true,
      supportsTopLevelUnion: false,
      toolResultMedia: false,
      supportsResponseFormatWithTools: true,
      strictResponseFormat: true,
      // Chat Completions has no top_k (a gateway that takes one gets it through providerOptions).
      unsupportedParameters: ["topK"],
    });
    this.client = sdk;
    noteModelCredentials(this, () => [
      typeof sdk.apiKey === "string" ? sdk.apiKey : undefined,
      ...issuedCredentials(sdk),
    ]);
    this.maxTokensField = maxTokensField ?? (isGateway ? "max_tokens" : "max_completion_tokens");
    this.sendReasoningContent = sendReasoningContent ?? isGateway;
    this.requiredDroppedFor = isGateway && rest.toolChoiceSupport === undefined ? trimSlash(sdk.baseURL) : undefined;
  }

  /** A forced call on a custom baseURL went down the ladder because the profile dropped `"required"`: say so, and how to keep it. */
  protected override fallbackNote(rung: ToolChoiceRung): string | undefined {
    const baseURL = this.requiredDroppedFor;
    if (baseURL === undefined || this.toolChoiceSupport.has("required")) return undefined;
    if (rung !== "response-format" && rung !== "prompt") return undefined;
    const support = JSON.stringify([...this.toolChoiceSupport, "required"]);
    return (
      `The cause: the custom baseURL ${baseURL} is not OpenAI's, and many OpenAI-compatible servers refuse tool_choice 'required', ` +
      "so keelson does not send it there. If this server honours it, say so with toolChoiceSupport: " +
      `new ${this.constructor.name}(${JSON.stringify(this.modelId)}, { baseURL: ${JSON.stringify(baseURL)}, toolChoiceSupport: ${support} })`
    );
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
      reasoningContent: this.sendReasoningContent,
      replyFields: {},
    });
  }
}
