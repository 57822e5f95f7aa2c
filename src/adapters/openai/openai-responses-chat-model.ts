import { issuedCredentials } from "../../internal/issued-credentials.js";
import { noteModelCredentials } from "../../internal/model-credentials.js";
import type OpenAI from "openai";
import { ChatModel } from "../../core/model/chat-model.js";
import type { ChatModelOptions } from "../../core/model/chat-model-options.js";
import type { ProviderInput, RunContext } from "../../core/input.js";
import type { ProviderOutput } from "../../core/output.js";
import type { ChatModelChunk } from "../../core/stream/chat-model-chunk.js";
import type { ToolChoiceMode } from "../../core/tool-choice/tool-choice-mode.js";
import { chunkStream } from "../../core/stream/chunk-stream.js";
import { lazyImport } from "../../core/loading/lazy-import.js";
import { guardedFetch } from "../../internal/guarded-fetch.js";
import { checkMaxResponseBytes } from "../../internal/max-response-bytes.js";
import { platformFetch } from "../../internal/platform-fetch.js";
import { env, isOpenAIBaseURL, trimSlash } from "./create-openai-client.js";
import { withEnvelopedErrors } from "./openai-error-body.js";
import { loadOpenAISDK } from "./load-openai-sdk.js";
import type { ResponsesConnection } from "./responses-calls.js";

// The request and response code loads on a model's first call.
const withCalls = lazyImport(() => import("./responses-calls.js"));

const openAIBaseURL = "https://api.openai.com/v1";

export interface OpenAIResponsesChatModelOptions extends ChatModelOptions {
  /** @default process.env.OPENAI_API_KEY */
  apiKey?: string | undefined;
  /**
   * Another endpoint with the Responses API: Azure OpenAI's v1 API
   * (`https://<resource>.openai.azure.com/openai/v1`, with the key in `headers: { "api-key": … }`),
   * a gateway. A custom one drops `"required"` from the default `toolChoiceSupport`; pass
   * `toolChoiceSupport` to keep it.
   * @default process.env.OPENAI_BASE_URL ?? "https://api.openai.com/v1"
   */
  baseURL?: string | undefined;
  /** @default process.env.OPENAI_ORG_ID */
  organization?: string | undefined;
  /** Extra headers sent with every request. @default none */
  headers?: Record<string, string> | undefined;
  /**
   * Whether OpenAI keeps each response (`store`). With `false` nothing is kept, and the requests
   * ask for `reasoning.encrypted_content`: a reasoning model's reasoning then travels inside the
   * assistant message (the reasoning part's `signature`) and goes back with the next turn, which
   * is what keeps a multi-turn tool loop's reasoning without server-side state (and what
   * zero-data-retention organisations must do).
   * @default unset (OpenAI's default, which stores; a reasoning item then goes back by its id)
   */
  store?: boolean | undefined;
  /**
   * A ready `openai` client, used as it is (`apiKey`, `baseURL`, `organization` and `headers` are
   * then ignored). Its own retries are turned off per request: keelson owns the retries.
   * @default a client built from the options above, on the platform fetch, its bodies capped at `maxResponseBytes`
   */
  client?: OpenAI | undefined;
}

/**
 * A chat model on OpenAI's Responses API (`/v1/responses`), through the `openai` SDK with its
 * retries off. Reasoning items (with their `encrypted_content` under `store: false`) come back as
 * reasoning parts with the item id and go back unchanged inside the assistant message; function
 * tools and all four tool_choice values are native; structured output is `text.format` json_schema
 * (strict); `status: "incomplete"` maps to `length` (or `content-filter`).
 */
export class OpenAIResponsesChatModel extends ChatModel {
  readonly providerId: string = "openai";
  // Its requests never pass a call's signal to AbortSignal.any (see ChatModel).
  protected override readonly plainCallsShareInertSignal = true;
  /** The SDK client every request goes through. */
  readonly client: OpenAI;
  readonly store: boolean | undefined;
  private connectionCache: ResponsesConnection | undefined;

  constructor(modelId: string, options: OpenAIResponsesChatModelOptions = {}) {
    const { apiKey, baseURL, organization, headers, client, store, ...rest } = options;
    const sdk =
      client ??
      createResponsesClient(apiKey, baseURL, organization, headers, checkMaxResponseBytes(rest.maxResponseBytes));
    const toolChoiceSupport: ToolChoiceMode[] = isOpenAIBaseURL(sdk.baseURL)
      ? ["auto", "none", "required", "single"]
      : ["auto", "none", "single"];
    super(modelId, rest, {
      toolChoiceSupport,
      supportsStructuredOutput: true,
      supportsTopLevelUnion: false,
      supportsResponseFormatWithTools: true,
      strictResponseFormat: true,
      // The Responses API has no stop sequences, seed, penalties or top_k.
      unsupportedParameters: ["stop", "seed", "frequencyPenalty", "presencePenalty", "topK"],
    });
    this.client = sdk;
    noteModelCredentials(this, () => [
      typeof sdk.apiKey === "string" ? sdk.apiKey : undefined,
      ...issuedCredentials(sdk),
    ]);
    this.store = store;
  }

  /** The Responses endpoint: its cache entries and learned capabilities are not the chat completions API's. */
  protected override get endpoint(): string {
    return `${trimSlash(this.client.baseURL)}/responses`;
  }

  protected override _create(input: ProviderInput, context: RunContext): Promise<ProviderOutput> {
    return withCalls((calls) => calls.createResponse(this.connection(), input, context));
  }

  protected override _createStream(input: ProviderInput, context: RunContext): AsyncIterable<ChatModelChunk> {
    return chunkStream(() => withCalls((calls) => calls.openResponseStream(this.connection(), input, context)));
  }

  /** The Responses API's input_tokens endpoint: the exact input tokens of a request. */
  protected override _countTokens(input: ProviderInput): Promise<number | undefined> {
    return withCalls((calls) => calls.countResponseTokens(this.connection(), input));
  }

  private connection(): ResponsesConnection {
    return (this.connectionCache ??= {
      client: this.client,
      providerId: this.providerId,
      modelId: this.modelId,
      storage: { store: this.store },
      errorHints: {
        authentication: "Check the API key (the apiKey option or OPENAI_API_KEY) and its project's access.",
        "not-found": `Check the model id '${this.modelId}' and that the key's project may use it.`,
      },
    });
  }
}

function createResponsesClient(
  apiKey: string | undefined,
  baseURL: string | undefined,
  organization: string | undefined,
  headers: Record<string, string> | undefined,
  maxResponseBytes: number,
): OpenAI {
  const url = baseURL ?? env("OPENAI_BASE_URL") ?? openAIBaseURL;
  let key = apiKey ?? env("OPENAI_API_KEY");
  if (key === undefined) {
    if (isOpenAIBaseURL(url)) {
      throw new TypeError("OpenAIResponsesChatModel needs an API key: pass { apiKey } or set OPENAI_API_KEY.");
    }
    key = "not-needed"; // a key sent in `headers` (Azure's api-key) or an endpoint that takes none
  }
  const Client = withEnvelopedErrors(loadOpenAISDK().OpenAI);
  return new Client({
    apiKey: key,
    baseURL: url,
    ...(organization === undefined ? {} : { organization }),
    ...(headers === undefined ? {} : { defaultHeaders: headers }),
    // keelson's base class owns retries; the SDK's would multiply every attempt.
    maxRetries: 0,
    // The platform fetch (redirects kept to http(s), credentials to their origin), bodies capped,
    // and a stream answered with a web page refused.
    fetch: guardedFetch(platformFetch(Object.keys(headers ?? {})), maxResponseBytes),
  });
}
