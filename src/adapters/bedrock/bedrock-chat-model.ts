import type {
  BedrockRuntimeClient,
  BedrockRuntimeClientConfig,
  ConverseCommandInput,
  ConverseCommandOutput,
  ConverseStreamCommandOutput,
  ConverseStreamOutput,
} from "@aws-sdk/client-bedrock-runtime";
import { ChatModel } from "../../core/chat-model.js";
import { ChatModelError } from "../../core/errors/chat-model-error.js";
import { ProviderError } from "../../core/errors/provider-error.js";
import { isAbortError } from "../../internal/abort.js";
import type { ChatModelOptions } from "../../core/chat-model-options.js";
import type { ProviderInput, RunContext } from "../../core/input.js";
import type { ProviderOutput } from "../../core/output.js";
import type { ChatModelChunk } from "../../core/stream/chat-model-chunk.js";
import { lazyRequire } from "../../internal/lazy-require.js";
import type { BedrockModelProfile } from "./bedrock-model-profiles.js";
import { bedrockModelProfile } from "./bedrock-model-profiles.js";
import { buildConverseRequest } from "./build-converse-request.js";
import { ConverseStreamReader } from "./converse-stream-reader.js";
import { chunkStream } from "../../core/stream/chunk-stream.js";
import { mapBedrockError } from "./map-bedrock-error.js";
import { readConverseResponse } from "./read-converse-response.js";

type BedrockSDK = typeof import("@aws-sdk/client-bedrock-runtime");

const loadSDK = lazyRequire<BedrockSDK>("@aws-sdk/client-bedrock-runtime", "the Bedrock adapter (keelson/bedrock)");

export interface BedrockChatModelOptions extends ChatModelOptions {
  /** The AWS region. @default the AWS default chain (`AWS_REGION`, the shared config file) */
  region?: string;
  /** A custom endpoint URL (a VPC endpoint, a proxy, a local test server). @default the regional Bedrock runtime endpoint */
  endpoint?: string;
  /** Static credentials or a credential provider. @default the AWS default credential chain */
  credentials?: BedrockRuntimeClientConfig["credentials"];
  /**
   * A ready client. `region`, `endpoint` and `credentials` are then ignored, and the client keeps its
   * own retry settings: construct it with `maxAttempts: 1` so that keelson is the only one retrying.
   * @default a `BedrockRuntimeClient` built from the options above, with `maxAttempts: 1`
   */
  client?: BedrockRuntimeClient;
}

/**
 * Amazon Bedrock through the Converse and ConverseStream APIs. What the model can do (tool_choice
 * values, structured output) comes from a table keyed by model-id prefix (see
 * `bedrockModelProfile`); the constructor options override it.
 */
export class BedrockChatModel extends ChatModel {
  readonly providerId = "bedrock";
  readonly client: BedrockRuntimeClient;
  // Plain private fields (not #private): ChatModel.clone() copies own properties.
  private readonly profile: BedrockModelProfile;
  private readonly endpointKey: string;
  declare private readonly secrets: readonly string[] | undefined;

  constructor(modelId: string, options: BedrockChatModelOptions = {}) {
    const { region, endpoint, credentials, client, ...common } = options;
    const profile = bedrockModelProfile(modelId);
    super(modelId, common, profile);
    this.profile = profile;
    const sdk = loadSDK();
    this.client =
      client ??
      new sdk.BedrockRuntimeClient({
        // keelson's base class owns retries; the SDK's own would multiply every attempt.
        maxAttempts: 1,
        ...(region === undefined ? {} : { region }),
        ...(endpoint === undefined ? {} : { endpoint }),
        ...(credentials === undefined ? {} : { credentials }),
      });
    this.endpointKey = endpoint ?? region ?? (client ? "client" : (process.env.AWS_REGION ?? process.env.AWS_DEFAULT_REGION ?? ""));
    // Kept out of enumeration, so that no log or serialisation of the model shows them.
    Object.defineProperty(this, "secrets", { value: staticSecrets(credentials), enumerable: false });
  }

  protected override get endpoint(): string {
    return this.endpointKey;
  }

  protected override async _create(input: ProviderInput, context: RunContext): Promise<ProviderOutput> {
    const { ConverseCommand } = loadSDK();
    const request = buildConverseRequest(this.modelId, input, this.profile);
    let response: ConverseCommandOutput;
    try {
      response = await this.client.send(new ConverseCommand(request), { abortSignal: context.signal });
    } catch (error) {
      throw this.mapError(error, request);
    }
    return readConverseResponse(response);
  }

  protected override _createStream(input: ProviderInput, context: RunContext): AsyncIterable<ChatModelChunk> {
    const request = buildConverseRequest(this.modelId, input, this.profile);
    return chunkStream(
      async () => {
        const { ConverseStreamCommand } = loadSDK();
        let response: ConverseStreamCommandOutput;
        try {
          response = await this.client.send(new ConverseStreamCommand(request), { abortSignal: context.signal });
        } catch (error) {
          throw this.mapError(error, request);
        }
        const reader = new ConverseStreamReader(this.modelId);
        // No event stream at all is an empty reply, as before: nothing to read, no finish to demand.
        if (!response.stream) return { parts: noEvents(), toChunks: () => [] };
        return { parts: response.stream, toChunks: (event) => reader.toChunks(event), end: () => reader.end() };
      },
      (error) => {
        const mapped = this.mapError(error, request);
        // What the event-stream decoder throws (a truncated or garbled frame) is the service's fault too.
        if (mapped === error && error instanceof Error && !isAbortError(error) && !ChatModelError.isInstance(error)) {
          return new ProviderError(`bedrock ${this.modelId}: the event stream could not be read: ${error.message}`, {
            providerId: "bedrock",
            modelId: this.modelId,
            reason: "server",
            cause: error,
          });
        }
        return mapped;
      },
    );
  }

  private mapError(error: unknown, request: ConverseCommandInput): unknown {
    const sentToolChoice = Object.keys(request.toolConfig?.toolChoice ?? {})[0];
    return mapBedrockError(error, { modelId: this.modelId, sentToolChoice, secrets: this.secrets ?? [] });
  }
}

async function* noEvents(): AsyncGenerator<ConverseStreamOutput> {}

function staticSecrets(credentials: BedrockChatModelOptions["credentials"]): string[] {
  if (!credentials || typeof credentials === "function") return [];
  return [credentials.secretAccessKey, credentials.sessionToken].filter((value): value is string => typeof value === "string");
}
