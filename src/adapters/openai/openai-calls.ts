import type OpenAI from "openai";
import type { ChatCompletionChunk } from "openai/resources/chat/completions";
import type { ProviderErrorReason } from "../../core/errors/provider-error.js";
import type { ProviderInput, RunContext } from "../../core/input.js";
import type { ProviderOutput } from "../../core/output.js";
import type { OpenedParts } from "../../core/stream/chunk-stream.js";
import { abortError, isAbortable } from "../../internal/abort.js";
import type { OpenAIErrorContext } from "./map-openai-error.js";
import { mapOpenAIError, notACompletion } from "./map-openai-error.js";
import { mapOpenAIResponse } from "./map-openai-response.js";
import { OpenAIStreamReader } from "./openai-stream-reader.js";
import type { MaxTokensField } from "./to-openai-request.js";
import { toOpenAIRequest } from "./to-openai-request.js";

/** What an OpenAIChatModel (or an Azure one) calls with. */
export interface OpenAIConnection {
  readonly client: OpenAI;
  readonly providerId: string;
  readonly modelId: string;
  readonly maxTokensField: MaxTokensField;
  /** What to do next after an error, per reason, in this provider's words. */
  readonly errorHints: () => Partial<Record<ProviderErrorReason, string>>;
}

/** The OpenAI adapter's requests and responses, loaded on a model's first call (lazyImport). */
export async function createOpenAIChat(connection: OpenAIConnection, input: ProviderInput, context: RunContext): Promise<ProviderOutput> {
  const body = toOpenAIRequest(input, connection.modelId, connection.maxTokensField, false);
  try {
    const completion = await connection.client.chat.completions.create(body, requestOptions(context.signal));
    if (!Array.isArray((completion as { choices?: unknown } | null)?.choices)) throw notACompletion(completion, errorContext(connection, input));
    return mapOpenAIResponse(completion);
  } catch (error) {
    throw openAICallError(connection, error, input, context.signal);
  }
}

/** A streamed chat completion, opened: its chunks for chunkStream, read by one OpenAIStreamReader. */
export async function openOpenAIStream(connection: OpenAIConnection, input: ProviderInput, context: RunContext): Promise<OpenedParts<ChatCompletionChunk>> {
  const body = toOpenAIRequest(input, connection.modelId, connection.maxTokensField, true);
  try {
    const stream = await connection.client.chat.completions.create(body, requestOptions(context.signal));
    const reader = new OpenAIStreamReader({ providerId: connection.providerId, modelId: connection.modelId });
    return {
      parts: stream,
      toChunks: (chunk) => reader.toChunks(chunk),
      end: () => reader.end(),
      mapError: (error) => openAICallError(connection, error, input, context.signal),
    };
  } catch (error) {
    throw openAICallError(connection, error, input, context.signal);
  }
}

function openAICallError(connection: OpenAIConnection, error: unknown, input: ProviderInput, signal: AbortSignal): unknown {
  if (signal.aborted) return abortError(signal);
  return mapOpenAIError(error, errorContext(connection, input));
}

function errorContext(connection: OpenAIConnection, input: ProviderInput): OpenAIErrorContext {
  return {
    providerId: connection.providerId,
    modelId: connection.modelId,
    apiKey: typeof connection.client.apiKey === "string" ? connection.client.apiKey : undefined,
    toolChoice: input.toolChoice,
    hints: connection.errorHints(),
  };
}

/** The SDK's request options: a signal only when the call can abort (the SDK never removes its listener). */
function requestOptions(signal: AbortSignal): { signal?: AbortSignal } {
  return !isAbortable(signal) ? {} : { signal };
}
