import { readingPart } from "../../core/reply-fields.js";
import type OpenAI from "openai";
import type { ChatCompletionChunk, ChatCompletionCreateParamsBase } from "openai/resources/chat/completions";
import type { ProviderErrorReason } from "../../core/errors/provider-error.js";
import type { ProviderInput, RunContext } from "../../core/input.js";
import type { ProviderOutput } from "../../core/output.js";
import type { OpenedParts } from "../../core/stream/chunk-stream.js";
import { abortError, fetchPatienceMs, settleOnAbort, timeLeft } from "../../internal/abort.js";
import { issuedCredentials } from "../../internal/issued-credentials.js";
import { sendsWithFetchLimits } from "../../internal/long-call-dispatcher.js";
import { sdkRequestOptions, type SDKClientLike } from "../../internal/sdk-request-options.js";
import { failedGeneration, failedGenerationChunks } from "./failed-generation.js";
import type { OpenAIReasoningField } from "./convert-to-openai-messages.js";
import { notACompletion, reportedError } from "./openai-error-body.js";
import { mapOpenAIError } from "./openai-error.js";
import type { OpenAIErrorContext } from "./openai-error-context.js";
import { mapOpenAIResponse, reasoningFieldOf } from "./map-openai-response.js";
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
  /** Whether tool-call turns carry their reasoning back. */
  readonly reasoningContent?: boolean;
  /** The field this endpoint's replies carry reasoning in, learned from them: the one it is sent back in. */
  readonly replyFields?: { reasoning?: OpenAIReasoningField };
}

/** The OpenAI adapter's requests and responses, loaded on a model's first call (lazyImport). */
export async function createOpenAIChat(
  connection: OpenAIConnection,
  input: ProviderInput,
  context: RunContext,
): Promise<ProviderOutput> {
  const body = toOpenAIRequest(input, connection.modelId, connection.maxTokensField, false, reasoningField(connection));
  try {
    // The SDK awaits a token provider (Azure's Entra ID, an `apiKey` function) before it reads the
    // signal: an abort or the call's timeout ends the call at once all the same.
    const completion = await settleOnAbort(
      connection.client.chat.completions.create(body, requestOptions(connection, context.signal)),
      context.signal,
    );
    if (!Array.isArray((completion as { choices?: unknown } | null)?.choices)) {
      const where = errorContext(connection, input, body, context.signal);
      throw reportedError(completion, where) ?? notACompletion(completion, where);
    }
    learnReasoningField(connection, reasoningFieldOf(completion.choices[0]?.message));
    return readingPart(connection, "completion", () => mapOpenAIResponse(completion, connection));
  } catch (error) {
    const failed = context.signal.aborted ? undefined : failedGeneration(error);
    if (failed) return failed;
    throw openAICallError(connection, error, input, body, context.signal);
  }
}

/** A streamed chat completion, opened: its chunks for chunkStream, read by one OpenAIStreamReader. */
export async function openOpenAIStream(
  connection: OpenAIConnection,
  input: ProviderInput,
  context: RunContext,
): Promise<OpenedParts<unknown>> {
  const body = toOpenAIRequest(input, connection.modelId, connection.maxTokensField, true, reasoningField(connection));
  try {
    const stream = await settleOnAbort(
      connection.client.chat.completions.create(body, requestOptions(connection, context.signal, true)),
      context.signal,
    );
    const reader = new OpenAIStreamReader({ providerId: connection.providerId, modelId: connection.modelId }, (chunk) =>
      reportedError(chunk, errorContext(connection, input, body, context.signal)),
    );
    return {
      parts: stream,
      toChunks: (chunk) => readingPart(connection, "stream chunk", () => reader.toChunks(chunk as ChatCompletionChunk)),
      end: () => {
        // The reader notes the field reasoning came in as it reads it: nothing more per chunk.
        learnReasoningField(connection, reader.reasoningField);
        return reader.end();
      },
      mapError: (error) => openAICallError(connection, error, input, body, context.signal),
    };
  } catch (error) {
    const failed = context.signal.aborted ? undefined : failedGeneration(error);
    if (failed) return { parts: oneReply(failed), toChunks: (part) => failedGenerationChunks(part as ProviderOutput) };
    throw openAICallError(connection, error, input, body, context.signal);
  }
}

/** One reply, as a stream of one part. */
async function* oneReply(output: ProviderOutput): AsyncGenerator<ProviderOutput> {
  yield output;
}

/** The field a tool-call turn's reasoning goes back in, if it goes back: the one the endpoint's replies use. */
function reasoningField(connection: OpenAIConnection): OpenAIReasoningField | undefined {
  return connection.reasoningContent ? (connection.replyFields?.reasoning ?? "reasoning_content") : undefined;
}

/** Notes the field a reply's reasoning came in, for a model that sends reasoning back and has not learned it yet. */
function learnReasoningField(connection: OpenAIConnection, field: OpenAIReasoningField | undefined): void {
  const { replyFields } = connection;
  if (field && connection.reasoningContent && replyFields !== undefined && replyFields.reasoning === undefined)
    replyFields.reasoning = field;
}

function openAICallError(
  connection: OpenAIConnection,
  error: unknown,
  input: ProviderInput,
  body: ChatCompletionCreateParamsBase,
  signal: AbortSignal,
): unknown {
  if (signal.aborted) return abortError(signal);
  return mapOpenAIError(error, errorContext(connection, input, body, signal));
}

function errorContext(
  connection: OpenAIConnection,
  input: ProviderInput,
  body: ChatCompletionCreateParamsBase,
  signal: AbortSignal,
): OpenAIErrorContext {
  const { client } = connection;
  return {
    sent: { body, reasoningField: reasoningField(connection) },
    providerId: connection.providerId,
    modelId: connection.modelId,
    apiKey: typeof client.apiKey === "string" ? client.apiKey : undefined,
    baseURL: typeof client.baseURL === "string" ? client.baseURL.replace(/\/+$/, "") : undefined,
    secrets: issuedCredentials(client),
    toolChoice: input.toolChoice,
    hints: connection.errorHints(),
    fetchLimitFirst:
      timeLeft(signal) === Infinity &&
      sendsWithFetchLimits(clientFetch(connection)) &&
      !(client.timeout <= fetchPatienceMs),
  };
}

/** The SDK's per-request options. */
type RequestOptions = NonNullable<Parameters<OpenAI["chat"]["completions"]["create"]>[1]>;

/** The SDK's request options: retries off, the call's signal and timeout, a long call's dispatcher. */
function requestOptions(connection: OpenAIConnection, signal: AbortSignal, stream = false): RequestOptions {
  return sdkRequestOptions(sdkClient(connection), signal, stream) as RequestOptions;
}

/** The fetch the client sends through (a client's own fetch is its owner's). */
function clientFetch(connection: OpenAIConnection): unknown {
  return sdkClient(connection).fetch;
}

/** The client fields its request options depend on. */
function sdkClient(connection: OpenAIConnection): SDKClientLike {
  return connection.client as unknown as SDKClientLike;
}
