import { readingPart } from "../../core/reply-fields.js";
import type { AbortableAsyncIterator, ChatResponse, Ollama } from "ollama/browser";
import type { ProviderInput, RunContext } from "../../core/input.js";
import type { ProviderOutput } from "../../core/output.js";
import { parseRetryAfter } from "../../core/retry/parse-retry-after.js";
import type { OpenedParts } from "../../core/stream/chunk-stream.js";
import { isAbortable, settleOnAbort } from "../../internal/abort.js";
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
 * The Ollama adapter's requests and responses, loaded on a model's first call (lazyImport). Each
 * request gets its own light client, whose fetch honours the call's signal (the SDK passes no
 * signal for non-streamed calls, and its abort() would end every stream at once), checks stream
 * bodies line by line (the SDK would skip a malformed line), and hands the SDK an error response's
 * message read once, capped and redacted, so that the SDK raises its own error (the ProviderError's
 * cause) without logging to the console; the Retry-After the SDK's error drops is kept beside it.
 */
export async function createOllamaChat(
  connection: OllamaConnection,
  input: ProviderInput,
  context: RunContext,
): Promise<ProviderOutput> {
  const request = buildOllamaChatRequest(connection.modelId, input, connection, false);
  const { client, state } = clientFor(connection, context.signal, false);
  try {
    const response = await settleOnAbort(client.chat(request), context.signal);
    return readingPart(replySource(connection), "response", () => mapOllamaResponse(response, replySource(connection)));
  } catch (error) {
    throw mapOllamaCallError(connection, error, state);
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
  const { client, state } = clientFor(connection, signal, true);
  // A caller's own client fetches with the SDK's signal, which only the stream's abort() reaches:
  // the call's signal is wired to it here. keelson's own client fetches with the call's signal.
  const callersClient = "client" in connection.clients;
  let stream: AbortableAsyncIterator<ChatResponse>;
  try {
    stream = await (callersClient ? settleOnAbort(client.chat(request), signal) : client.chat(request));
  } catch (error) {
    throw mapOllamaCallError(connection, error, state);
  }
  const source = replySource(connection);
  const stop = () => stream.abort();
  if (callersClient) signal.addEventListener("abort", stop, { once: true });
  return {
    parts: stream,
    toChunks: (part) => readingPart(source, "stream line", () => mapOllamaStreamPart(part, source)),
    // The SDK ends its parts at the `done: true` one; a stream left before that is let go of, not
    // read to the end: the SDK's reader of the body does not cancel it when its parts are returned.
    close: (finished) => {
      if (callersClient) signal.removeEventListener("abort", stop);
      if (finished) return;
      if (callersClient) stream.abort();
      else state.reader?.cancel().catch(() => undefined);
    },
    mapError: (error) => mapOllamaCallError(connection, error, state),
  };
}

function replySource(connection: OllamaConnection): { providerId: string; modelId: string } {
  return { providerId: "ollama", modelId: connection.modelId };
}

function mapOllamaCallError(connection: OllamaConnection, error: unknown, state: RequestState): unknown {
  // The error becomes the cause, and its message the ProviderError's: a server that echoes a credential must not pass it on.
  return mapOllamaError(redactSecrets(error, secretsNow(connection.secrets)), {
    modelId: connection.modelId,
    host: connection.host,
    retryAfterMs: state.retryAfterMs,
  });
}

/** What one request's fetch saw: how long its error response asked to wait, and the reader the SDK took of its stream's body. */
interface RequestState {
  retryAfterMs?: number | undefined;
  reader?: ReadableStreamDefaultReader<Uint8Array> | undefined;
}

/** A light client for one request (a caller's own client is used as it is). */
function clientFor(
  connection: OllamaConnection,
  signal: AbortSignal,
  stream: boolean,
): { client: Ollama; state: RequestState } {
  const state: RequestState = {};
  const { clients } = connection;
  if ("client" in clients) return { client: clients.client, state };
  const { OllamaClient, headers, headerOverrides, fetch: baseFetch } = clients;
  const send: typeof fetch = headerOverrides
    ? (url, init) => baseFetch(url, withHeaderOverrides(init, headerOverrides))
    : baseFetch;
  const client = new OllamaClient({
    host: connection.host,
    ...(headers ? { headers } : {}),
    fetch: async (url, init) => {
      // The call's signal ends the request (the SDK's own, which only its abort() reaches, is not needed beside it).
      const linked = isAbortable(signal) ? signal : init?.signal;
      // A call whose timeout outlasts Node's fetch (5 minutes) is not cut off by it.
      const dispatcher = longCallDispatcher(signal, baseFetch);
      const request = dispatcher
        ? ({ ...init, signal: linked, dispatcher } as RequestInit)
        : linked
          ? { ...init, signal: linked }
          : init;
      const response = await send(url, request);
      if (!response.ok) return errorResponse(response, connection.secrets, state);
      if (!stream) return response;
      // A web page where the stream belongs (a proxy's, a login page): refused, not read as an empty stream.
      await checkStreamBody(response, /ndjson/i);
      return strictNDJSON(response, (reader) => (state.reader = reader));
    },
  });
  return { client, state };
}

/**
 * An error response as the SDK reads it best: its message (the JSON body's `error`, else the text,
 * else the status line) read here once, its start only, the credentials cut out, in a JSON body of
 * its own, so the SDK raises its own error with it and logs nothing ("Getting text from response").
 * An error page of megabytes is not a message. The Retry-After goes into `refusal`.
 */
async function errorResponse(response: Response, secrets: readonly string[], state: RequestState): Promise<Response> {
  state.retryAfterMs = parseRetryAfter(response.headers);
  let message = `Error ${response.status}: ${response.statusText}`;
  try {
    if (response.headers.get("content-type")?.includes("application/json")) {
      message = bodyMessage(await response.json()) ?? message;
    } else {
      message = (await response.text()) || message;
    }
  } catch {
    // A body that cannot be read: the status line says what there is to say.
  }
  const error = redactedExcerpt(message, secretsNow(secrets), maxServerTextLength);
  // No statusText: a reason phrase that is not Latin-1 would make the Response constructor throw.
  return new Response(JSON.stringify({ error }), {
    status: response.status,
    headers: { "content-type": "application/json" },
  });
}

/**
 * The message an error body carries: Ollama's `{ "error": "…" }`, or the OpenAI-style
 * `{ "error": { "message": "…" } }` a proxy or gateway in front of Ollama answers with (a 401 or a 429),
 * or a bare `{ "message": "…" }` / `{ "detail": "…" }`.
 */
function bodyMessage(body: unknown): string | undefined {
  if (body === null || typeof body !== "object") return undefined;
  const { error, message, detail } = body as { error?: unknown; message?: unknown; detail?: unknown };
  const nested = error !== null && typeof error === "object" ? (error as { message?: unknown }).message : undefined;
  for (const candidate of [error, nested, message, detail])
    if (typeof candidate === "string" && candidate.trim() !== "") return candidate;
  return undefined;
}
