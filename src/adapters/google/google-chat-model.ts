import type { GoogleGenAI } from "@google/genai";
import { ChatModel } from "../../core/model/chat-model.js";
import type { ProviderInput, RunContext } from "../../core/input.js";
import type { ProviderOutput } from "../../core/output.js";
import type { ChatModelChunk } from "../../core/stream/chat-model-chunk.js";
import { chunkStream } from "../../core/stream/chunk-stream.js";
import { guardedFetch } from "../../internal/guarded-fetch.js";
import { lazyImport } from "../../internal/lazy-import.js";
import { platformFetch } from "../../internal/platform-fetch.js";
import type { GoogleConnection } from "./google-calls.js";
import type { GoogleChatModelOptions } from "./google-chat-model-options.js";
import { loadGoogleSDK } from "./load-google-sdk.js";

// The request and response code loads on a model's first call.
const withCalls = lazyImport(() => import("./google-calls.js"));

const geminiEndpoint = "https://generativelanguage.googleapis.com";

/**
 * Gemini through `@google/genai` (the Gemini Developer API, or Vertex AI with `vertexai: true`), the
 * SDK's retries off.
 *
 * Profile: all four tool_choice values native (`functionCallingConfig` `AUTO`, `NONE`, `ANY`, and
 * `ANY` with `allowedFunctionNames` for one tool); structured output through `responseJsonSchema`
 * (tools and a response format do not share a request: the answer then travels as a forced tool).
 * Thinking comes back as reasoning (`includeThoughts`), `reasoningEffort` sets the thinking budget,
 * and every part's `thoughtSignature` is kept in the assistant message (on its tool call, or as a
 * reasoning part) and sent back unchanged on the next turn. Tool and response-format schemas are
 * sent in the subset Gemini accepts (see `projectSchema`).
 */
export class GoogleChatModel extends ChatModel {
  readonly providerId = "google";
  /** Tool and response-format schemas are sent in Gemini's subset (see `projectSchema`). */
  readonly schemaForm = "gemini";
  /** The SDK client every request goes through. */
  readonly client: GoogleGenAI;
  // Plain fields, not #private ones: clone() copies own properties.
  private readonly googleEndpoint: string;
  /** What the wire code calls with. */
  private readonly connection: GoogleConnection;

  constructor(modelId: string, options: GoogleChatModelOptions = {}) {
    const { apiKey, vertexai, project, location, baseURL, headers, client, ...common } = options;
    super(modelId, common, {
      toolChoiceSupport: ["auto", "none", "required", "single"],
      supportsStructuredOutput: true,
      supportsTopLevelUnion: false,
      supportsResponseFormatWithTools: false,
    });
    if (client !== undefined) {
      // A caller's client is a @google/genai client, typed structurally in the options.
      this.client = client as unknown as GoogleGenAI;
      this.googleEndpoint = `${client.vertexai === true ? "vertex-ai" : geminiEndpoint} (caller's client)`;
      this.connection = { client: this.client, modelId, secrets: [] };
      return;
    }
    const useVertex = vertexai ?? env("GOOGLE_GENAI_USE_VERTEXAI")?.toLowerCase() === "true";
    const key = useVertex ? apiKey : (apiKey ?? env("GEMINI_API_KEY") ?? env("GOOGLE_API_KEY"));
    if (!useVertex && key === undefined) {
      throw new TypeError(
        "GoogleChatModel needs an API key: pass { apiKey } or set GEMINI_API_KEY (or GOOGLE_API_KEY); for Vertex AI pass { vertexai: true, project, location }.",
      );
    }
    const cloudProject = project ?? env("GOOGLE_CLOUD_PROJECT");
    const cloudLocation = location ?? env("GOOGLE_CLOUD_LOCATION");
    // The platform fetch (redirects kept to http(s), credentials to their origin), bodies capped.
    const fetch = guardedFetch(platformFetch(["x-goog-api-key", ...Object.keys(headers ?? {})]), this.maxResponseBytes);
    const { GoogleGenAI: Client } = loadGoogleSDK();
    this.client = new Client({
      ...(useVertex ? { vertexai: true } : {}),
      ...(key === undefined ? {} : { apiKey: key }),
      ...(cloudProject === undefined ? {} : { project: cloudProject }),
      ...(cloudLocation === undefined ? {} : { location: cloudLocation }),
      httpOptions: {
        ...(baseURL === undefined ? {} : { baseUrl: baseURL }),
        ...(headers === undefined ? {} : { headers }),
        // keelson's base class owns retries; the SDK's would multiply every attempt.
        retryOptions: { attempts: 1 },
        fetch,
      },
    });
    this.googleEndpoint = (
      baseURL ??
      (useVertex
        ? `https://${cloudLocation ?? "global"}-aiplatform.googleapis.com/${cloudProject ?? ""}`
        : geminiEndpoint)
    ).replace(/\/+$/, "");
    this.connection = { client: this.client, modelId, secrets: key === undefined ? [] : [key], fetch };
  }

  protected override get endpoint(): string {
    return this.googleEndpoint;
  }

  protected override _create(input: ProviderInput, context: RunContext): Promise<ProviderOutput> {
    return withCalls((calls) => calls.generateGoogleContent(this.connection, input, context));
  }

  protected override _createStream(input: ProviderInput, context: RunContext): AsyncIterable<ChatModelChunk> {
    return chunkStream(() => withCalls((calls) => calls.openGoogleStream(this.connection, input, context)));
  }

  /**
   * Gemini's countTokens endpoint: the exact input tokens of a request (on the Gemini Developer API,
   * of one without a system instruction or tools, which its endpoint does not take: those are estimated).
   */
  protected override _countTokens(input: ProviderInput): Promise<number | undefined> {
    return withCalls((calls) => calls.countGoogleTokens(this.connection, input));
  }
}

/** An environment variable, an empty one as unset. */
function env(name: string): string | undefined {
  const value = process.env[name];
  return value === undefined || value === "" ? undefined : value;
}
