import type Anthropic from "@anthropic-ai/sdk";
import type { ProviderInput, RunContext } from "../../core/input.js";
import type { ProviderOutput } from "../../core/output.js";
import type { OpenedParts } from "../../core/stream/chunk-stream.js";
import { abortError, settleOnAbort } from "../../internal/abort.js";
import { sdkRequestOptions, type SDKClientLike } from "../../internal/sdk-request-options.js";
import { anthropicSecrets } from "./anthropic-secrets.js";
import { AnthropicStreamReader } from "./anthropic-stream-reader.js";
import { buildAnthropicRequest } from "./build-anthropic-request.js";
import { mapAnthropicError } from "./map-anthropic-error.js";
import { readAnthropicMessage } from "./read-anthropic-message.js";

/** What an AnthropicChatModel calls with. */
export interface AnthropicConnection {
  readonly client: Anthropic;
  readonly modelId: string;
  /** `max_tokens` when the call sets no `maxTokens` (Anthropic requires one). */
  readonly defaultMaxTokens: number;
}

/** The Anthropic adapter's requests and responses, loaded on a model's first call (lazyImport). */
export async function createAnthropicMessage(
  connection: AnthropicConnection,
  input: ProviderInput,
  context: RunContext,
): Promise<ProviderOutput> {
  const body = buildAnthropicRequest(connection.modelId, input, connection.defaultMaxTokens, false);
  try {
    const message = await settleOnAbort(
      connection.client.messages.create(body, requestOptions(connection, context.signal)),
      context.signal,
    );
    return readAnthropicMessage(message, connection.modelId);
  } catch (error) {
    throw callError(connection, error, input, context.signal);
  }
}

/** A streamed Messages API reply, opened: its events for chunkStream, read by one AnthropicStreamReader. */
export async function openAnthropicStream(
  connection: AnthropicConnection,
  input: ProviderInput,
  context: RunContext,
): Promise<OpenedParts<Anthropic.RawMessageStreamEvent>> {
  const body = buildAnthropicRequest(connection.modelId, input, connection.defaultMaxTokens, true);
  try {
    const stream = await settleOnAbort(
      connection.client.messages.create(body, requestOptions(connection, context.signal, true)),
      context.signal,
    );
    const reader = new AnthropicStreamReader(connection.modelId);
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

function callError(connection: AnthropicConnection, error: unknown, input: ProviderInput, signal: AbortSignal) {
  if (signal.aborted) return abortError(signal);
  return mapAnthropicError(error, {
    modelId: connection.modelId,
    secrets: anthropicSecrets(connection.client),
    toolChoice: input.toolChoice,
  });
}

type RequestOptions = NonNullable<Parameters<Anthropic["messages"]["create"]>[1]>;

/** The SDK's request options: retries off, the call's signal and timeout, a long call's dispatcher. */
function requestOptions(connection: AnthropicConnection, signal: AbortSignal, stream = false): RequestOptions {
  return sdkRequestOptions(connection.client as unknown as SDKClientLike, signal, stream) as RequestOptions;
}

/** The input tokens of a request, counted by Anthropic's count_tokens endpoint (the request's fields that count). */
export async function countAnthropicTokens(connection: AnthropicConnection, input: ProviderInput): Promise<number> {
  const body = buildAnthropicRequest(connection.modelId, input, connection.defaultMaxTokens, false);
  const { model, messages, system, tools, tool_choice, thinking } = body;
  const params = { model, messages, system, tools, tool_choice, thinking };
  for (const key of Object.keys(params) as (keyof typeof params)[]) if (params[key] === undefined) delete params[key];
  try {
    const counted = await connection.client.messages.countTokens(
      params as Anthropic.MessageCountTokensParams,
      requestOptions(connection, input.signal),
    );
    return counted.input_tokens;
  } catch (error) {
    throw callError(connection, error, input, input.signal);
  }
}
