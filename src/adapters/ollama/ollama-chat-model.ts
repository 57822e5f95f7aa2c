import { noteModelCredentials } from "../../internal/model-credentials.js";
import { secretsNow } from "./ollama-secrets.js";
import type { Ollama } from "ollama";
import { ChatModel } from "../../core/model/chat-model.js";
import type { ChatModelProfile } from "../../core/model/chat-model-options.js";
import type { ProviderInput, RunContext } from "../../core/input.js";
import type { ProviderOutput } from "../../core/output.js";
import type { ChatModelChunk } from "../../core/stream/chat-model-chunk.js";
import { chunkStream } from "../../core/stream/chunk-stream.js";
import { lazyImport } from "../../core/loading/lazy-import.js";
import { guardedFetch } from "../../internal/guarded-fetch.js";
import { platformFetch } from "../../internal/platform-fetch.js";
import { lazyRequireSDK } from "../../core/loading/lazy-require.js";
import type { OllamaConnection } from "./ollama-calls.js";
import type { OllamaChatModelOptions } from "./ollama-chat-model-options.js";
import { cleanOllamaHost } from "./clean-ollama-host.js";
import { splitHostCredentials } from "./ollama-host.js";
import { ollamaSecrets } from "./ollama-secrets.js";
import { sdkHeaderOverrides } from "./sdk-header-overrides.js";

// The SDK's browser build: the Node one adds only reading images from file paths (keelson sends
// image bytes) and costs ~0.15 ms more to load (node:fs, node:path, a second module).
const loadOllama = lazyRequireSDK<typeof import("ollama/browser")>(
  "ollama",
  "the Ollama adapter (keelson/ollama)",
  "ollama/browser",
);
const withCalls = lazyImport(() => import("./ollama-calls.js"));

export const defaultOllamaHost = "http://127.0.0.1:11434";

/**
 * Ollama silently ignores `tool_choice`, so nothing is in the support set: `required` and a single
 * tool go through `format` with the tool-union schema, which the server compiles into a grammar
 * (a root `anyOf` included), so a forced call is guaranteed by decoding, not hoped for.
 */
const ollamaProfile: ChatModelProfile = {
  toolChoiceSupport: [],
  supportsStructuredOutput: true,
  supportsTopLevelUnion: true,
  toolResultMedia: false,
};

/** A chat model served by Ollama, through the `ollama` SDK's native `/api/chat`. */
export class OllamaChatModel extends ChatModel {
  readonly providerId = "ollama";
  /** Schemas are sent with their `$ref`s inlined (see `projectSchema`): what its `format` grammar and tool templates read. */
  readonly schemaForm = "inline-refs";
  // Its requests never pass a call's signal to AbortSignal.any (see ChatModel).
  protected override readonly plainCallsShareInertSignal = true;
  private readonly connection: OllamaConnection;

  constructor(modelId: string, options: OllamaChatModelOptions = {}) {
    const { host, client: _client, headers, fetch: customFetch, keepAlive, ...common } = options;
    const client = options.client as Ollama | undefined;
    super(modelId, common, ollamaProfile);
    if (host !== undefined && (typeof host !== "string" || host.trim() === "")) {
      throw new TypeError(`OllamaChatModel: host must be a non-empty string, got ${JSON.stringify(host)}.`);
    }
    if (client !== undefined && typeof (client as Partial<Ollama> | null)?.chat !== "function") {
      throw new TypeError("OllamaChatModel: client must be an Ollama instance from the 'ollama' package.");
    }
    const target = splitHostCredentials(
      (host === undefined ? undefined : cleanOllamaHost(host)) ??
        (client ? clientHost(client) : undefined) ??
        (cleanOllamaHost(process.env.OLLAMA_HOST ?? "") || defaultOllamaHost),
    );
    const hasAuthorization = Object.keys(headers ?? {}).some((name) => name.toLowerCase() === "authorization");
    const requestHeaders =
      target.authorization && !hasAuthorization ? { ...headers, authorization: target.authorization } : headers;
    this.connection = {
      modelId,
      host: target.host,
      keepAlive,
      secrets: ollamaSecrets({ headers, hostAuthorization: target.authorization, client }),
      clients: client
        ? { client }
        : {
            // The SDK loads when the model is built, so a missing one is reported then.
            OllamaClient: loadOllama().Ollama,
            headers: requestHeaders,
            headerOverrides: sdkHeaderOverrides(requestHeaders),
            // Bodies capped, a caller's fetch too.
            fetch: guardedFetch(customFetch ?? platformFetch(Object.keys(requestHeaders ?? {})), this.maxResponseBytes),
          },
    };
    const connection = this.connection;
    noteModelCredentials(this, () => secretsNow(connection.secrets));
  }

  /** The server, as shown in messages and the cache key (credentials removed). */
  protected override get endpoint(): string {
    return this.connection.host;
  }

  // The request and response code loads on the first call (lazyImport): importing keelson and one
  // adapter compiles none of the adapters' wire code (cold import + construct of keelson and
  // keelson/ollama 10.0 -> 9.4 ms here, the raw SDK's 8.3; a first call, ~70 ms of HTTP set-up and
  // validator compiling, did not change measurably).
  protected override _create(input: ProviderInput, context: RunContext): Promise<ProviderOutput> {
    return withCalls((calls) => calls.createOllamaChat(this.connection, input, context));
  }

  protected override _createStream(input: ProviderInput, context: RunContext): AsyncIterable<ChatModelChunk> {
    return chunkStream(() => withCalls((calls) => calls.openOllamaStream(this.connection, input, context)));
  }
}

/** The host a caller's client was built with (a runtime field the SDK's types mark protected). */
function clientHost(client: Ollama): string | undefined {
  const host = (client as unknown as { config?: { host?: unknown } }).config?.host;
  return typeof host === "string" && host !== "" ? host : undefined;
}
