import type { AbortableAsyncIterator, ChatResponse, Ollama } from "ollama";
import { ChatModel } from "../../core/chat-model.js";
import type { ChatModelProfile } from "../../core/chat-model-options.js";
import type { ProviderInput, RunContext } from "../../core/input.js";
import type { ProviderOutput } from "../../core/output.js";
import type { ChatModelChunk } from "../../core/stream/chat-model-chunk.js";
import { lazyRequire } from "../../internal/lazy-require.js";
import { buildOllamaChatRequest } from "./build-ollama-chat-request.js";
import { mapOllamaError } from "./map-ollama-error.js";
import { splitHostCredentials } from "./ollama-host.js";
import { strictNDJSON } from "./strict-ndjson.js";
import { chunkStream } from "../../core/stream/chunk-stream.js";
import { mapOllamaResponse, mapOllamaStreamPart } from "./map-ollama-response.js";
import type { OllamaChatModelOptions } from "./ollama-chat-model-options.js";
import { eitherSignal, isAbortable, settleOnAbort } from "../../internal/abort.js";
import { parseRetryAfter } from "../../core/retry/parse-retry-after.js";

const loadOllama = lazyRequire<typeof import("ollama")>("ollama", "the Ollama adapter (keelson/ollama)");

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
};

/** A chat model served by Ollama, through the `ollama` SDK's native `/api/chat`. */
export class OllamaChatModel extends ChatModel {
  readonly providerId = "ollama";
  /** The server, as shown in messages and the cache key (credentials removed). */
  private readonly host: string;
  /** The client for one request; `onRefused` gets an error response (for its Retry-After). */
  private readonly clientFor: (signal: AbortSignal, stream: boolean, onRefused: (response: Response) => void) => Ollama;
  private readonly keepAlive: string | number | undefined;

  constructor(modelId: string, options: OllamaChatModelOptions = {}) {
    const { host, client, headers, fetch: customFetch, keepAlive, ...common } = options;
    super(modelId, common, ollamaProfile);
    if (host !== undefined && (typeof host !== "string" || host.trim() === "")) {
      throw new TypeError(`OllamaChatModel: host must be a non-empty string, got ${JSON.stringify(host)}.`);
    }
    if (client !== undefined && typeof (client as Partial<Ollama> | null)?.chat !== "function") {
      throw new TypeError("OllamaChatModel: client must be an Ollama instance from the 'ollama' package.");
    }
    const target = splitHostCredentials(
      host ?? (client ? clientHost(client) : undefined) ?? (process.env.OLLAMA_HOST || defaultOllamaHost),
    );
    this.host = target.host;
    this.keepAlive = keepAlive;
    if (client) {
      this.clientFor = () => client;
    } else {
      const { Ollama: OllamaClient } = loadOllama();
      const baseFetch = customFetch ?? globalThis.fetch;
      const hasAuthorization = Object.keys(headers ?? {}).some((name) => name.toLowerCase() === "authorization");
      const allHeaders = target.authorization && !hasAuthorization ? { ...headers, authorization: target.authorization } : headers;
      // One light client per request, whose fetch also honours that request's signal (the SDK
      // passes no signal for non-streamed calls, and its abort() would end every stream at once),
      // reports an error response for its Retry-After, and checks stream bodies line by line (the
      // SDK would skip a malformed line). A call that cannot abort links no signal.
      this.clientFor = (signal, stream, onRefused) =>
        new OllamaClient({
          host: target.host,
          ...(allHeaders ? { headers: allHeaders } : {}),
          fetch: async (url, init) => {
            const linked = !isAbortable(signal) ? init?.signal : init?.signal ? eitherSignal(init.signal, signal) : signal;
            const response = await baseFetch(url, linked ? { ...init, signal: linked } : init);
            if (!response.ok) onRefused(response);
            else if (stream) return strictNDJSON(response);
            return response;
          },
        });
    }
  }

  protected override get endpoint(): string {
    return this.host;
  }

  protected override async _create(input: ProviderInput, context: RunContext): Promise<ProviderOutput> {
    const request = buildOllamaChatRequest(this.modelId, input, { keepAlive: this.keepAlive });
    let retryAfterMs: number | undefined;
    const client = this.clientFor(context.signal, false, (response) => (retryAfterMs = parseRetryAfter(response.headers)));
    try {
      const response = await settleOnAbort(client.chat({ ...request, stream: false }), context.signal);
      return mapOllamaResponse(response);
    } catch (error) {
      throw this.mapError(error, retryAfterMs);
    }
  }

  protected override _createStream(input: ProviderInput, context: RunContext): AsyncIterable<ChatModelChunk> {
    const { signal } = context;
    return chunkStream(
      async () => {
        const request = buildOllamaChatRequest(this.modelId, input, { keepAlive: this.keepAlive });
        let retryAfterMs: number | undefined;
        const client = this.clientFor(signal, true, (response) => (retryAfterMs = parseRetryAfter(response.headers)));
        let stream: AbortableAsyncIterator<ChatResponse>;
        try {
          stream = await settleOnAbort(client.chat({ ...request, stream: true }), signal);
        } catch (error) {
          throw this.mapError(error, retryAfterMs);
        }
        const stop = () => stream.abort();
        signal.addEventListener("abort", stop, { once: true });
        return {
          parts: stream,
          toChunks: mapOllamaStreamPart,
          // The SDK ends its parts at the `done: true` one; a stream left before that is closed, not read to the end.
          close: (finished) => {
            signal.removeEventListener("abort", stop);
            if (!finished) stream.abort();
          },
        };
      },
      (error) => this.mapError(error),
    );
  }

  private mapError(error: unknown, retryAfterMs?: number): unknown {
    return mapOllamaError(error, { modelId: this.modelId, host: this.host, retryAfterMs });
  }
}

/** The host a caller's client was built with (a runtime field the SDK's types mark protected). */
function clientHost(client: Ollama): string | undefined {
  const host = (client as unknown as { config?: { host?: unknown } }).config?.host;
  return typeof host === "string" && host !== "" ? host : undefined;
}
