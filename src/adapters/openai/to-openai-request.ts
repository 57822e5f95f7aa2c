import type {
  ChatCompletionCreateParamsBase,
  ChatCompletionTool,
  ChatCompletionToolChoiceOption,
} from "openai/resources/chat/completions";
import type { ResponseFormatJSONObject, ResponseFormatJSONSchema } from "openai/resources/shared";
import type { ProviderInput, ProviderResponseFormat, ProviderTool, ProviderToolChoice } from "../../core/input.js";
import type { OpenAIReasoningField } from "./convert-to-openai-messages.js";
import { convertToOpenAIMessages } from "./convert-to-openai-messages.js";

/** Which body field carries `parameters.maxTokens`. */
export type MaxTokensField = "max_completion_tokens" | "max_tokens";

/**
 * The chat.completions body for one attempt. Only what the input sets is sent; `providerOptions`
 * are merged last, so a caller can set any field the API has (or a gateway adds) — except `stream`,
 * which is the adapter's; a stream always asks for usage in its last chunk.
 * `topK` has no OpenAI field and is not sent (a gateway that takes `top_k` gets it via providerOptions).
 */
export function toOpenAIRequest<S extends boolean>(
  input: ProviderInput,
  model: string,
  maxTokensField: MaxTokensField,
  stream: S,
  reasoningField?: OpenAIReasoningField,
): ChatCompletionCreateParamsBase & { stream: S } {
  const reasoningContent = reasoningField !== undefined;
  const messages = convertToOpenAIMessages(input.messages, {
    reasoningContent,
    ...(reasoningField ? { reasoningField } : {}),
  });
  const body: ChatCompletionCreateParamsBase = { model, messages };
  if (input.tools && input.tools.length > 0) {
    body.tools = input.tools.map(toOpenAITool);
    if (input.toolChoice !== undefined) body.tool_choice = toOpenAIToolChoice(input.toolChoice);
    if (input.parallelToolCalls !== undefined) body.parallel_tool_calls = input.parallelToolCalls;
  }
  if (input.responseFormat) body.response_format = toOpenAIResponseFormat(input.responseFormat);
  const { temperature, maxTokens, topP, stop, seed, frequencyPenalty, presencePenalty, reasoningEffort } =
    input.parameters;
  if (temperature !== undefined) body.temperature = temperature;
  if (maxTokens !== undefined) body[maxTokensField] = maxTokens;
  if (topP !== undefined) body.top_p = topP;
  if (stop !== undefined && stop.length > 0) body.stop = stop;
  if (seed !== undefined) body.seed = seed;
  if (frequencyPenalty !== undefined) body.frequency_penalty = frequencyPenalty;
  if (presencePenalty !== undefined) body.presence_penalty = presencePenalty;
  if (reasoningEffort !== undefined) body.reasoning_effort = reasoningEffort;
  // Spread (not assigned) so a `__proto__` key stays a plain field; only when there is something to merge.
  const request = (
    input.providerOptions ? { ...body, ...input.providerOptions } : body
  ) as ChatCompletionCreateParamsBase & { stream: S };
  request.stream = stream;
  if (stream) request.stream_options = { ...request.stream_options, include_usage: true };
  return request;
}

function toOpenAITool(tool: ProviderTool): ChatCompletionTool {
  return {
    type: "function",
    function:
      tool.description === undefined
        ? { name: tool.name, parameters: tool.parameters }
        : { name: tool.name, description: tool.description, parameters: tool.parameters },
  };
}

export function toOpenAIToolChoice(choice: ProviderToolChoice): ChatCompletionToolChoiceOption {
  return typeof choice === "string" ? choice : { type: "function", function: { name: choice.name } };
}

function toOpenAIResponseFormat(format: ProviderResponseFormat): ResponseFormatJSONSchema | ResponseFormatJSONObject {
  if (format.type === "json") return { type: "json_object" };
  return {
    type: "json_schema",
    json_schema: {
      name: format.name,
      schema: format.schema,
      ...(format.strict === undefined ? {} : { strict: format.strict }),
    },
  };
}
