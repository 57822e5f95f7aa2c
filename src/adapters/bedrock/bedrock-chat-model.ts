import type { BedrockRuntimeClient } from "@aws-sdk/client-bedrock-runtime";
import { ChatModel } from "../../core/model/chat-model.js";
import type { ProviderInput, RunContext } from "../../core/input.js";
import type { ProviderOutput } from "../../core/output.js";
import type { ChatModelChunk } from "../../core/stream/chat-model-chunk.js";
import { chunkStream } from "../../core/stream/chunk-stream.js";
import { lazyImport } from "../../core/loading/lazy-import.js";
import { lazyRequireSDK } from "../../core/loading/lazy-require.js";
import type { BedrockConnection } from "./bedrock-calls.js";
import type { BedrockChatModelOptions } from "./bedrock-chat-model-options.js";
import { bedrockSecrets, watchResolvedCredentials } from "./bedrock-secrets.js";
import { noteModelCredentials } from "../../internal/model-credentials.js";
import { guardBedrockResponses } from "./guard-bedrock-responses.js";
import type { BedrockModelProfile } from "./bedrock-model-profiles.js";
import { bedrockModelProfile } from "./bedrock-model-profiles.js";

type BedrockSDK = typeof import("@aws-sdk/client-bedrock-runtime");

const loadSDK = lazyRequireSDK<BedrockSDK>("@aws-sdk/client-bedrock-runtime", "the Bedrock adapter (keelson/bedrock)");
const withCalls = lazyImport(() => import("./bedrock-calls.js"));

export type { BedrockChatModelOptions } from "./bedrock-chat-model-options.js";

/**
 * Amazon Bedrock through the Converse and ConverseStream APIs. What the model can do (tool_choice
 * values, structured output) comes from a table keyed by model-id prefix (see
 * `bedrockModelProfile`); the constructor options override it.
 */
export class BedrockChatModel extends ChatModel {
  readonly providerId = "bedrock";
  // Its requests never pass a call's signal to AbortSignal.any (see ChatModel).
  protected override readonly plainCallsShareInertSignal = true;
  readonly client: BedrockRuntimeClient;
  // Plain private fields (not #private): ChatModel.clone() copies own properties.
  private readonly bedrockProfile: BedrockModelProfile;
  private readonly endpointKey: string;
  private connectionCache: BedrockConnection | undefined;
  declare private readonly secrets: readonly string[] | undefined;
  /** What the client's credential provider resolved (see watchResolvedCredentials), kept out of errors too. */
  declare private readonly issued: string[] | undefined;

  constructor(modelId: string, options: BedrockChatModelOptions = {}) {
    const { region, endpoint, credentials, client, ...common } = options;
    const profile = bedrockModelProfile(modelId);
    super(modelId, common, profile);
    this.bedrockProfile = profile;
    const sdk = loadSDK();
    this.client =
      (client as BedrockRuntimeClient | undefined) ??
      new sdk.BedrockRuntimeClient({
        // keelson's base class owns retries; the SDK's own would multiply every attempt.
        maxAttempts: 1,
        // The SDK ends a request whose HTTP/2 session is idle for 5 minutes: a model that thinks
        // longer before its first byte (Claude with extended thinking) would fail whatever the
        // call's `timeout`. The call's own `timeout` and signal are what bound it. The handler keeps
        // the SDK's default of one session per request.
        requestHandler: { disableConcurrentStreams: true, sessionTimeout: 0 },
        ...(region === undefined ? {} : { region }),
        ...(endpoint === undefined ? {} : { endpoint }),
        ...(credentials === undefined ? {} : { credentials }),
      });
    this.endpointKey =
      endpoint ?? region ?? (client ? "client" : (process.env.AWS_REGION ?? process.env.AWS_DEFAULT_REGION ?? ""));
    // Kept out of enumeration, so that no log or serialisation of the model shows them.
    Object.defineProperty(this, "secrets", { value: staticSecrets(credentials), enumerable: false });
    // A caller's own client too: the key it signs with is cut out of errors as keelson's client's is.
    Object.defineProperty(this, "issued", { value: watchResolvedCredentials(this.client), enumerable: false });
    noteModelCredentials(this, () => bedrockSecrets([...(this.secrets ?? []), ...(this.issued ?? [])]));
    // Bodies capped, and a stream answered with a web page refused: on the client keelson built only.
    if (!client) guardBedrockResponses(this.client, this.maxResponseBytes);
  }

  protected override get endpoint(): string {
    return this.endpointKey;
  }

  // The request and response code loads on a model's first call: importing keelson and another
  // adapter does not compile it.
  protected override _create(input: ProviderInput, context: RunContext): Promise<ProviderOutput> {
    return withCalls((calls) => calls.createConverse(this.connection(), input, context));
  }

  protected override _createStream(input: ProviderInput, context: RunContext): AsyncIterable<ChatModelChunk> {
    return chunkStream(() => withCalls((calls) => calls.openConverseStream(this.connection(), input, context)));
  }

  /** What the wire code calls with, built on the first call. */
  private connection(): BedrockConnection {
    return (this.connectionCache ??= {
      modelId: this.modelId,
      client: this.client,
      profile: this.bedrockProfile,
      sdk: loadSDK(),
      secrets: this.secrets ?? [],
      issued: this.issued ?? [],
    });
  }
}

function staticSecrets(credentials: BedrockChatModelOptions["credentials"]): string[] {
  if (!credentials || typeof credentials === "function") return [];
  return [credentials.secretAccessKey, credentials.sessionToken].filter(
    (value): value is string => typeof value === "string",
  );
}
