import type { AbortableAsyncIterator, ChatResponse, Ollama } from "ollama";
import type { ProviderInput, RunContext } from "../../core/input.js";
import type { ProviderOutput } from "../../core/output.js";
import { parseRetryAfter } from "../../core/retry/parse-retry-after.js";
import type { OpenedParts } from "../../core/stream/chunk-stream.js";
import { eitherSignal, isAbortable, settleOnAbort } from "../../internal/abort.js";
import { buildOllamaChatRequest } from "./build-ollama-chat-request.js";
import { mapOllamaError } from "./map-ollama-error.js";
import { mapOllamaResponse, mapOllamaStreamPart } from "./map-ollama-response.js";
import { strictNDJSON } from "./strict-ndjson.js";

/** What an OllamaChatModel calls with: its model, its server and how each request's client is built. */
export interface OllamaConnection {
  readonly modelId: string;
  /** The server, as shown in messages (credentials removed). */
  readonly host: string;
  readonly keepAlive: string | number | undefined;
  /** A caller's own client, used as it is; or what one light client per request is built from. */
  readonly clients:
    | { readonly client: Ollama }
    | { readonly OllamaClient: typeof Ollama; readonly headers: Record<string, string> | undefined; readonly fetch: typeof fetch };
}

/**
 * The Ollama adapter's requests and responses, loaded on a model's first call (lazyImport). A
 * request goes through its own light client, whose fetch also honours that request's signal (the
 * SDK passes no signal for non-streamed calls, and its abort() would end every stream at once),
 * reports an error response for its Retry-After, and checks stream bodies line by line (the SDK
 * would skip a malformed line). A call that cannot abort links no signal.
 */
export async function createOllamaChat(connection: OllamaConnection, input: ProviderInput, context: RunContext): Promise<ProviderOutput> {
  const request = buildOllamaChatRequest(connection.modelId, input, { keepAlive: connection.keepAlive });
  let retryAfterMs: number | undefined;
  const client = clientFor(connection, context.signal, false, (response) => (retryAfterMs = parseRetryAfter(response.headers)));
  try {
    const response = await settleOnAbort(client.chat({ ...request, stream: false }), context.signal);
    return mapOllamaResponse(response);
  } catch (error) {
    throw mapOllamaCallError(connection, error, retryAfterMs);
  }
}

/** A streamed `/api/chat`, opened: its parts for chunkStream, and how to close it. */
export async function openOllamaStream(connection: OllamaConnection, input: ProviderInput, context: RunContext): Promise<OpenedParts<ChatResponse>> {
  const { signal } = context;
  const request = buildOllamaChatRequest(connection.modelId, input, { keepAlive: connection.keepAlive });
  let retryAfterMs: number | undefined;
  const client = clientFor(connection, signal, true, (response) => (retryAfterMs = parseRetryAfter(response.headers)));
  let stream: AbortableAsyncIterator<ChatResponse>;
  try {
    stream = await settleOnAbort(client.chat({ ...request, stream: true }), signal);
  } catch (error) {
    throw mapOllamaCallError(connection, error, retryAfterMs);
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
}

export function mapOllamaCallError(connection: OllamaConnection, error: unknown, retryAfterMs?: number): unknown {
  return mapOllamaError(error, { modelId: connection.modelId, host: connection.host, retryAfterMs });
}

/** The client for one request; `onRefused` gets an error response (for its Retry-After). */
function clientFor(connection: OllamaConnection, signal: AbortSignal, stream: boolean, onRefused: (response: Response) => void): Ollama {
  const { clients } = connection;
  if ("client" in clients) return clients.client;
  const baseFetch = clients.fetch;
  return new clients.OllamaClient({
    host: connection.host,
    ...(clients.headers ? { headers: clients.headers } : {}),
    fetch: async (url, init) => {
      const linked = !isAbortable(signal) ? init?.signal : init?.signal ? eitherSignal(init.signal, signal) : signal;
      const response = await baseFetch(url, linked ? { ...init, signal: linked } : init);
      if (!response.ok) onRefused(response);
      else if (stream) return strictNDJSON(response);
      return response;
    },
  });
}
