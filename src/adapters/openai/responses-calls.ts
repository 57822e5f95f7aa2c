import type OpenAI from "openai";
import type { ResponseStreamEvent } from "openai/resources/responses/responses";
import type { ProviderErrorReason } from "../../core/errors/provider-error.js";
import type { ProviderInput, RunContext } from "../../core/input.js";
import type { ProviderOutput } from "../../core/output.js";
import type { OpenedParts } from "../../core/stream/chunk-stream.js";
import { abortError, isAbortable, maxTimerMs, settleOnAbort, timeLeft } from "../../internal/abort.js";
import { mapOpenAIError } from "./map-openai-error.js";
import { readResponsesOutput } from "./read-responses-output.js";
import { ResponsesStreamReader } from "./responses-stream-reader.js";
import type { ResponsesStorage } from "./to-responses-request.js";
import { toResponsesRequest } from "./to-responses-request.js";

/** What an OpenAIResponsesChatModel calls with. */
export interface ResponsesConnection {
  readonly client: OpenAI;
  readonly providerId: string;
  readonly modelId: string;
  readonly storage: ResponsesStorage;
  readonly errorHints: Partial<Record<ProviderErrorReason, string>>;
}

/** The Responses adapter's requests and responses, loaded on a model's first call (lazyImport). */
export async function createResponse(
  connection: ResponsesConnection,
  input: ProviderInput,
  context: RunContext,
): Promise<ProviderOutput> {
  const body = toResponsesRequest(input, connection.modelId, connection.storage, false);
  try {
    const response = await settleOnAbort(
      connection.client.responses.create(body, requestOptions(connection, context.signal)),
      context.signal,
    );
    return readResponsesOutput(response);
  } catch (error) {
    throw callError(connection, error, input, context.signal);
  }
}

/** A streamed response, opened: its typed events for chunkStream, read by one ResponsesStreamReader. */
export async function openResponseStream(
  connection: ResponsesConnection,
  input: ProviderInput,
  context: RunContext,
): Promise<OpenedParts<ResponseStreamEvent>> {
  const body = toResponsesRequest(input, connection.modelId, connection.storage, true);
  try {
    const stream = await settleOnAbort(
      connection.client.responses.create(body, requestOptions(connection, context.signal)),
      context.signal,
    );
    const reader = new ResponsesStreamReader(connection);
    return {
      parts: stream,
      toChunks: (event) => reader.toChunks(event),
      end: () => reader.end(),
      mapError: (error) => callError(connection, error, input, context.signal),
    };
  } catch (error) {
    throw callError(connection, error, input, context.signal);
  }
}

function callError(connection: ResponsesConnection, error: unknown, input: ProviderInput, signal: AbortSignal) {
  if (signal.aborted) return abortError(signal);
  const { apiKey } = connection.client;
  return mapOpenAIError(error, {
    providerId: connection.providerId,
    modelId: connection.modelId,
    apiKey: typeof apiKey === "string" ? apiKey : undefined,
    toolChoice: input.toolChoice,
    hints: connection.errorHints,
  });
}

type RequestOptions = NonNullable<Parameters<OpenAI["responses"]["create"]>[1]>;

/**
 * The SDK's per-request options: its retries off (a caller's client may keep them on), a signal
 * only when the call can abort, and for a call with a `timeout` the SDK's own (10 minutes) moved
 * past it, so that the call's is the one that ends it.
 */
function requestOptions(connection: ResponsesConnection, signal: AbortSignal): RequestOptions {
  const options: RequestOptions = {};
  if (connection.client.maxRetries !== 0) options.maxRetries = 0;
  if (!isAbortable(signal)) return options;
  options.signal = signal;
  const left = timeLeft(signal);
  if (left !== Infinity) options.timeout = Math.min(Math.ceil(left) + 1000, maxTimerMs);
  return options;
}
