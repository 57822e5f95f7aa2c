import type {
  FunctionTool,
  ResponseCreateParamsBase,
  ResponseFormatTextConfig,
  ToolChoiceFunction,
  ToolChoiceOptions,
} from "openai/resources/responses/responses";
import type { ProviderInput, ProviderResponseFormat, ProviderTool, ProviderToolChoice } from "../../core/input.js";
import { toResponsesInput } from "./to-responses-input.js";

/** How a Responses model's requests treat the conversation's state on OpenAI's side. */
export interface ResponsesStorage {
  /** `store` sent with every request, when set. */
  store?: boolean | undefined;
}

/**
 * The /v1/responses body for one attempt. Only what the input sets is sent; function tools go with
 * `strict: false` (keelson validates arguments itself, and a tool schema need not be in strict
 * form). A model built with `store: false` sends `store: false` and asks for
 * `reasoning.encrypted_content`, so that reasoning round-trips without OpenAI keeping it.
 * `stop`, `seed`, the penalties and `topK` have no Responses field: the model declares them
 * unsupported, so the base class drops them with a warning. `providerOptions` are
 * merged last (any field the API has: `include`, `reasoning: { summary }`, `previous_response_id`, …),
 * one level deep, except `stream`, which is the adapter's.
 */
export function toResponsesRequest<S extends boolean>(
  input: ProviderInput,
  model: string,
  storage: ResponsesStorage,
  stream: S,
): ResponseCreateParamsBase & { stream: S } {
  const body: ResponseCreateParamsBase = { model, input: toResponsesInput(input.messages) };
  if (input.tools && input.tools.length > 0) {
    body.tools = input.tools.map(toResponsesTool);
    if (input.toolChoice !== undefined) body.tool_choice = toResponsesToolChoice(input.toolChoice);
    if (input.parallelToolCalls !== undefined) body.parallel_tool_calls = input.parallelToolCalls;
  }
  if (input.responseFormat) body.text = { format: toResponsesFormat(input.responseFormat) };
  const { temperature, maxTokens, topP, reasoningEffort } = input.parameters;
  if (temperature !== undefined) body.temperature = temperature;
  if (maxTokens !== undefined) body.max_output_tokens = maxTokens;
  if (topP !== undefined) body.top_p = topP;
  if (reasoningEffort !== undefined) body.reasoning = { effort: reasoningEffort };
  if (storage.store !== undefined) body.store = storage.store;
  if (storage.store === false) body.include = ["reasoning.encrypted_content"];
  const request = mergeProviderOptions(body, input.providerOptions) as ResponseCreateParamsBase & { stream: S };
  request.stream = stream;
  return request;
}

function mergeProviderOptions(body: object, options: Record<string, unknown> | undefined): object {
  if (!options) return body;
  // Spread (not assigned) so a `__proto__` key stays a plain field.
  const merged: Record<string, unknown> = { ...body };
  for (const [key, value] of Object.entries(options)) {
    const current = merged[key];
    merged[key] = isPlainObject(current) && isPlainObject(value) ? { ...current, ...value } : value;
  }
  return merged;
}

function isPlainObject(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

function toResponsesTool(tool: ProviderTool): FunctionTool {
  return {
    type: "function",
    name: tool.name,
    ...(tool.description === undefined ? {} : { description: tool.description }),
    parameters: tool.parameters as FunctionTool["parameters"],
    strict: false,
  };
}

function toResponsesToolChoice(choice: ProviderToolChoice): ToolChoiceOptions | ToolChoiceFunction {
  return typeof choice === "string" ? choice : { type: "function", name: choice.name };
}

function toResponsesFormat(format: ProviderResponseFormat): ResponseFormatTextConfig {
  if (format.type === "json") return { type: "json_object" };
  return {
    type: "json_schema",
    name: format.name,
    schema: format.schema as Record<string, unknown>,
    ...(format.strict === undefined ? {} : { strict: format.strict }),
  };
}
