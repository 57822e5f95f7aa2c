import type { AbortableAsyncIterator, ChatResponse, Ollama } from "ollama/browser";
import type { ProviderInput, RunContext } from "../../core/input.js";
import type { ProviderOutput } from "../../core/output.js";
import { parseRetryAfter } from "../../core/retry/parse-retry-after.js";
import type { OpenedParts } from "../../core/stream/chunk-stream.js";
import { eitherSignal, isAbortable, settleOnAbort } from "../../internal/abort.js";
import { maxServerTextLength, redactedExcerpt, redactSecrets } from "../../internal/redact-secrets.js";
import { checkStreamBody } from "../../internal/check-stream-body.js";
import { longCallDispatcher } from "../../internal/long-call-dispatcher.js";
import { buildOllamaChatRequest } from "./build-ollama-chat-request.js";
import { mapOllamaError } from "./map-ollama-error.js";
import { mapOllamaResponse, mapOllamaStreamPart } from "./map-ollama-response.js";
import { secretsNow } from "./ollama-secrets.js";
import { withHeaderOverrides } from "./sdk-header-overrides.js";
import { strictNDJSON } from "./strict-ndjson.js";

/** What an OllamaChatModel calls with: its model, its server and how each request's client is built. */
export interface OllamaConnection {
  readonly modelId: string;
  /** The server, as shown in messages (credentials removed). */
  readonly host: string;
  readonly keepAlive: string | number | undefined;
  /** The credentials its requests carry (see ollamaSecrets), cut out of every error. */
  readonly secrets: readonly string[];
  /** A caller's own client, used as it is; or what one light client per request is built from. */
  readonly clients:
    | { readonly client: Ollama }
    | {
        readonly OllamaClient: typeof Ollama;
        readonly headers: Record<string, string> | undefined;
        /** The caller's headers the SDK would replace with its own (see sdkHeaderOverrides). */
        readonly headerOverrides: Record<string, string> | undefined;
        readonly fetch: typeof fetch;
      };
}

/**
 * The Ollama adapter's requests and responses, loaded on a model's first call (lazyImport). Every
 * request's fetch turns an error response into the error the SDK would raise, plus the Retry-After
 * the SDK's error drops. A plain call (not streamed, nothing can abort it) goes through one client
 * per model; any other request gets its own light client, whose fetch also honours the call's
 * signal (the SDK passes no signal for non-streamed calls, and its abort() would end every stream
 * at once) and checks stream bodies line by line (the SDK would skip a malformed line).
 */
export async function createOllamaChat(
  connection: OllamaConnection,
  input: ProviderInput,
  context: RunContext,
): Promise<ProviderOutput> {
  const request = buildOllamaChatRequest(connection.modelId, input, connection, false);
  const client = clientFor(connection, context.signal, false);
  try {
    const response = await settleOnAbort(client.chat(request), context.signal);
    return mapOllamaResponse(response, replySource(connection));
  } catch (error) {
    throw mapOllamaCallError(connection, error);
  }
}

/** A streamed `/api/chat`, opened: its parts for chunkStream, and how to close it. */
export async function openOllamaStream(
  connection: OllamaConnection,
  input: ProviderInput,
  context: RunContext,
): Promise<OpenedParts<ChatResponse>> {
  const { signal } = context;
  const request = buildOllamaChatRequest(connection.modelId, input, connection, true);
  const client = clientFor(connection, signal, true);
  let stream: AbortableAsyncIterator<ChatResponse>;
  try {
    stream = await settleOnAbort(client.chat(request), signal);
  } catch (error) {
    throw mapOllamaCallError(connection, error);
  }
  const source = replySource(connection);
  const stop = () => stream.abort();
  signal.addEventListener("abort", stop, { once: true });
  return {
    parts: stream,
    toChunks: (part) => mapOllamaStreamPart(part, source),
    // The SDK ends its parts at the `done: true` one; a stream left before that is closed, not read to the end.
    close: (finished) => {
      signal.removeEventListener("abort", stop);
      if (!finished) stream.abort();
    },
    mapError: (error) => mapOllamaCallError(connection, error),
  };
}

function replySource(connection: OllamaConnection): { providerId: string; modelId: string } {
  return { providerId: "ollama", modelId: connection.modelId };
}

function mapOllamaCallError(connection: OllamaConnection, error: unknown): unknown {
  // The error becomes the cause, and its message the ProviderError's: a server that echoes a credential must not pass it on.
  redactSecrets(error, secretsNow(connection.secrets));
  return mapOllamaError(error, { modelId: connection.modelId, host: connection.host });
}

/** One client per model for plain calls: building the SDK's client re-parses the host every time. */
const plainClients = new WeakMap<OllamaConnection, Ollama>();

function clientFor(connection: OllamaConnection, signal: AbortSignal, stream: boolean): Ollama {
  const { clients } = connection;
  if ("client" in clients) return clients.client;
  const plain = !stream && !isAbortable(signal);
  const shared = plain ? plainClients.get(connection) : undefined;
  if (shared) return shared;
  const { OllamaClient, headers, headerOverrides, fetch: baseFetch } = clients;
  const send: typeof fetch = headerOverrides
    ? (url, init) => baseFetch(url, withHeaderOverrides(init, headerOverrides))
    : baseFetch;
  const client = new OllamaClient({
    host: connection.host,
    ...(headers ? { headers } : {}),
    fetch: plain
      ? (url, init) => fetchOrRefuse(send, url, init, connection.secrets)
      : async (url, init) => {
          const linked = !isAbortable(signal)
            ? init?.signal
            : init?.signal
              ? eitherSignal(init.signal, signal)
              : signal;
          // A call whose timeout outlasts Node's fetch (5 minutes) is not cut off by it.
          const dispatcher = longCallDispatcher(signal, baseFetch);
          const request = dispatcher
            ? ({ ...init, signal: linked, dispatcher } as RequestInit)
            : linked
              ? { ...init, signal: linked }
              : init;
          const response = await fetchOrRefuse(send, url, request, connection.secrets);
          if (!stream) return response;
          // A web page where the stream belongs (a proxy's, a login page): refused, not read as an empty stream.
          await checkStreamBody(response, /ndjson/i);
          return strictNDJSON(response);
        },
  });
  if (plain) plainClients.set(connection, client);
  return client;
}

/** The response, or — for an error status — the SDK's error with the response's Retry-After. */
async function fetchOrRefuse(
  baseFetch: typeof fetch,
  url: string | URL | Request,
  init: RequestInit | undefined,
  secrets: readonly string[],
): Promise<Response> {
  const response = await baseFetch(url, init);
  if (!response.ok) throw await responseError(response, secrets);
  return response;
}

/**
 * An error response as the SDK's ResponseError (its message: the JSON body's `error`, else the
 * text, else the status line), with `retryAfterMs` from its headers. Read here, the SDK never logs
 * "Getting text from response" to the console on the way. The message is the body's start, the
 * credentials cut out first: an error page of megabytes is not a message.
 */
async function responseError(response: Response, secrets: readonly string[]): Promise<Error> {
  let message = `Error ${response.status}: ${response.statusText}`;
  try {
    if (response.headers.get("content-type")?.includes("application/json")) {
      const body = (await response.json()) as { error?: unknown } | null;
      if (typeof body?.error === "string" && body.error !== "") message = body.error;
    } else {
      message = (await response.text()) || message;
    }
  } catch {
    // A body that cannot be read: the status line says what there is to say.
  }
  return Object.assign(new Error(redactedExcerpt(message, secretsNow(secrets), maxServerTextLength)), {
    name: "ResponseError",
    status_code: response.status,
    retryAfterMs: parseRetryAfter(response.headers),
  });
}
