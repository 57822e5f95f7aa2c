import type OpenAI from "openai";
import type { ResponseStreamEvent } from "openai/resources/responses/responses";
import type { ProviderErrorReason } from "../../core/errors/provider-error.js";
import type { ProviderInput, RunContext } from "../../core/input.js";
import type { ProviderOutput } from "../../core/output.js";
import type { OpenedParts } from "../../core/stream/chunk-stream.js";
import { abortError, settleOnAbort } from "../../internal/abort.js";
import { sdkRequestOptions, type SDKClientLike } from "../../internal/sdk-request-options.js";
import { mapOpenAIError } from "./openai-error.js";
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
    return readResponsesOutput(response, { providerId: connection.providerId, modelId: connection.modelId });
  } catch (error) {
    throw callError(connection, error, input, body, context.signal);
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
      connection.client.responses.create(body, requestOptions(connection, context.signal, true)),
      context.signal,
    );
    const reader = new ResponsesStreamReader(connection);
    return {
      parts: stream,
      toChunks: (event) => reader.toChunks(event),
      end: () => reader.end(),
      mapError: (error) => callError(connection, error, input, body, context.signal),
    };
  } catch (error) {
    throw callError(connection, error, input, body, context.signal);
  }
}

function callError(
  connection: ResponsesConnection,
  error: unknown,
  input: ProviderInput,
  body: object,
  signal: AbortSignal,
) {
  if (signal.aborted) return abortError(signal);
  const { apiKey } = connection.client;
  return mapOpenAIError(error, {
    providerId: connection.providerId,
    modelId: connection.modelId,
    apiKey: typeof apiKey === "string" ? apiKey : undefined,
    toolChoice: input.toolChoice,
    sent: { body },
    hints: connection.errorHints,
  });
}

type RequestOptions = NonNullable<Parameters<OpenAI["responses"]["create"]>[1]>;

/** The SDK's request options: retries off, the call's signal and timeout, a long call's dispatcher. */
function requestOptions(connection: ResponsesConnection, signal: AbortSignal, stream = false): RequestOptions {
  return sdkRequestOptions(connection.client as unknown as SDKClientLike, signal, stream) as RequestOptions;
}

/**
 * The input tokens of a request, counted by the Responses API's input_tokens endpoint; undefined
 * with an SDK too old to have it (openai < 6).
 */
export async function countResponseTokens(
  connection: ResponsesConnection,
  input: ProviderInput,
): Promise<number | undefined> {
  const counter = (connection.client.responses as { inputTokens?: OpenAI.Responses.InputTokens }).inputTokens;
  if (counter === undefined) return undefined;
  const {
    model,
    input: items,
    instructions,
    tools,
    tool_choice,
    parallel_tool_calls,
    reasoning,
    text,
  } = toResponsesRequest(input, connection.modelId, connection.storage, false);
  const params = { model, input: items, instructions, tools, tool_choice, parallel_tool_calls, reasoning, text };
  for (const key of Object.keys(params) as (keyof typeof params)[]) if (params[key] == null) delete params[key];
  try {
    const counted = await counter.count(
      params as OpenAI.Responses.InputTokenCountParams,
      requestOptions(connection, input.signal),
    );
    return counted.input_tokens;
  } catch (error) {
    throw callError(connection, error, input, params, input.signal);
  }
}
