import type {
  CountTokensConfig,
  GenerateContentParameters,
  GenerateContentResponse,
  GoogleGenAI,
  Tool,
} from "@google/genai";
import type { ProviderInput, RunContext } from "../../core/input.js";
import type { ProviderOutput } from "../../core/output.js";
import type { OpenedParts } from "../../core/stream/chunk-stream.js";
import { abortError, isAbortable, settleOnAbort } from "../../internal/abort.js";
import { expectsEventStream } from "../../internal/guarded-fetch.js";
import { buildGoogleRequest } from "./build-google-request.js";
import { GoogleStreamReader } from "./google-stream-reader.js";
import { mapGoogleError } from "./map-google-error.js";
import { readGoogleResponse } from "./read-google-response.js";

/** What a GoogleChatModel calls with. */
export interface GoogleConnection {
  readonly client: GoogleGenAI;
  readonly modelId: string;
  /** The credentials its requests carry, kept out of every error. */
  readonly secrets: readonly string[];
  /** The fetch keelson built the client with (absent for a caller's client, whose fetch is its own). */
  readonly fetch?: typeof globalThis.fetch;
}

/** The Gemini adapter's requests and responses, loaded on a model's first call (lazyImport). */
export async function generateGoogleContent(
  connection: GoogleConnection,
  input: ProviderInput,
  context: RunContext,
): Promise<ProviderOutput> {
  const seen: SeenResponse = {};
  try {
    const request = withRequestOptions(buildGoogleRequest(connection.modelId, input), connection, context.signal, seen);
    const response = await settleOnAbort(connection.client.models.generateContent(request), context.signal);
    return readGoogleResponse(response);
  } catch (error) {
    throw callError(connection, error, input, context.signal, seen);
  }
}

/** A streamed reply, opened: its events for chunkStream, read by one GoogleStreamReader. */
export async function openGoogleStream(
  connection: GoogleConnection,
  input: ProviderInput,
  context: RunContext,
): Promise<OpenedParts<GenerateContentResponse>> {
  const seen: SeenResponse = {};
  try {
    const request = withRequestOptions(
      buildGoogleRequest(connection.modelId, input),
      connection,
      context.signal,
      seen,
      true,
    );
    const stream = await settleOnAbort(connection.client.models.generateContentStream(request), context.signal);
    const reader = new GoogleStreamReader(connection.modelId);
    return {
      parts: stream,
      toChunks: (event) => reader.toChunks(event),
      end: () => reader.end(),
      mapError: (error) => callError(connection, error, input, context.signal, seen),
    };
  } catch (error) {
    throw callError(connection, error, input, context.signal, seen);
  }
}

/**
 * The input tokens of a request, counted by Gemini's countTokens endpoint (`models.countTokens`): its
 * contents, and on Vertex AI its system instruction and tools too. undefined (keelson estimates) when
 * the Gemini Developer API cannot count the whole request: its countTokens takes contents only, so a
 * request with a system instruction or tools would be undercounted.
 */
export async function countGoogleTokens(
  connection: GoogleConnection,
  input: ProviderInput,
): Promise<number | undefined> {
  const { model, contents, config } = buildGoogleRequest(connection.modelId, input);
  const { systemInstruction, tools } = config ?? {};
  if (connection.client.vertexai !== true && (systemInstruction !== undefined || tools !== undefined)) return undefined;
  const counting: CountTokensConfig = {};
  if (systemInstruction !== undefined) counting.systemInstruction = systemInstruction;
  // buildGoogleRequest sends declarations only (no callable tools).
  if (tools !== undefined) counting.tools = tools as Tool[];
  if (isAbortable(input.signal)) counting.abortSignal = input.signal;
  try {
    const counted = await settleOnAbort(
      connection.client.models.countTokens({ model, contents, config: counting }),
      input.signal,
    );
    return typeof counted.totalTokens === "number" ? counted.totalTokens : undefined;
  } catch (error) {
    throw callError(connection, error, input, input.signal, {});
  }
}

/** The headers of an error response, when keelson's fetch saw it (for its Retry-After). */
interface SeenResponse {
  headers?: Headers;
}

/**
 * The request with the call's signal, and, on a client keelson built, a fetch of this request's own
 * over the client's: it marks a stream request (a 2xx that is no event stream is refused) and keeps
 * an error response's headers, which the SDK's error drops.
 */
function withRequestOptions(
  request: GenerateContentParameters,
  connection: GoogleConnection,
  signal: AbortSignal,
  seen: SeenResponse,
  stream = false,
): GenerateContentParameters {
  const config = { ...request.config };
  if (isAbortable(signal)) config.abortSignal = signal;
  const base = connection.fetch;
  if (base !== undefined) {
    const fetch = async (url: string | URL | Request, init?: RequestInit): Promise<Response> => {
      const marked: RequestInit & { [expectsEventStream]?: true } = stream
        ? { ...init, [expectsEventStream]: true }
        : {};
      const response = await base(url, stream ? marked : init);
      if (!response.ok) seen.headers = response.headers;
      return response;
    };
    config.httpOptions = { ...config.httpOptions, fetch };
  }
  return { ...request, config };
}

function callError(
  connection: GoogleConnection,
  error: unknown,
  input: ProviderInput,
  signal: AbortSignal,
  seen: SeenResponse,
) {
  if (signal.aborted) return abortError(signal);
  return mapGoogleError(error, {
    modelId: connection.modelId,
    secrets: connection.secrets,
    input,
    headers: seen.headers,
  });
}
