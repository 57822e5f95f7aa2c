import type { ChatRequest, Options, Tool as OllamaTool } from "ollama";
import type { ChatModelParameters, ProviderInput, ProviderResponseFormat, ProviderTool } from "../../core/input.js";
import { convertToOllamaMessages } from "./convert-to-ollama-messages.js";

export interface OllamaRequestSettings {
  keepAlive?: string | number | undefined;
}

type ThinkValue = NonNullable<ChatRequest["think"]>;

/**
 * A `ProviderInput` as an `/api/chat` body. Ollama has no `tool_choice`: the
 * base class never sends one to this adapter's empty support set — `none` arrives without tools,
 * `required`/single arrive as a tool-union `format`, which the server enforces with a grammar. Tools
 * with a response format arrive as one `format` too, the answer a variant of the union: the profile
 * never has both sent, since a `format` grammar beside `tools` blocks the calls (ollama/ollama#11037).
 * `providerOptions` are request fields and win (except `stream`); their `options` merge into the
 * sampling options.
 */
export function buildOllamaChatRequest<S extends boolean>(
  modelId: string,
  input: ProviderInput,
  settings: OllamaRequestSettings,
  stream: S,
): ChatRequest & { stream: S } {
  let request: ChatRequest = { model: modelId, messages: convertToOllamaMessages(input.messages) };
  if (input.tools && input.tools.length > 0) request.tools = input.tools.map(toOllamaTool);
  const format = toFormat(input.responseFormat);
  if (format !== undefined) request.format = format;
  const options = toOptions(input.parameters);
  if (Object.keys(options).length > 0) request.options = options;
  const think = toThink(input.parameters.reasoningEffort);
  if (think !== undefined) request.think = think;
  if (settings.keepAlive !== undefined) request.keep_alive = settings.keepAlive;
  if (input.providerOptions) {
    const { options: extraOptions, ...extra } = input.providerOptions;
    // Spread, not assigned: a `__proto__` key stays a plain field of the body (assigned, it would
    // set the request's prototype and never be sent).
    request = { ...request, ...extra };
    if (extraOptions !== null && typeof extraOptions === "object") {
      request.options = { ...options, ...(extraOptions as Partial<Options>) };
    }
  }
  request.stream = stream;
  return request as ChatRequest & { stream: S };
}

function toOllamaTool(tool: ProviderTool): OllamaTool {
  // The SDK types `parameters` narrowly; the server takes any JSON Schema object.
  const parameters = tool.parameters as NonNullable<OllamaTool["function"]["parameters"]>;
  return {
    type: "function",
    function:
      tool.description === undefined
        ? { name: tool.name, parameters }
        : { name: tool.name, description: tool.description, parameters },
  };
}

function toFormat(format: ProviderResponseFormat | undefined): ChatRequest["format"] {
  if (format === undefined) return undefined;
  return format.type === "json" ? "json" : format.schema;
}

function toOptions(parameters: ChatModelParameters): Partial<Options> {
  const options: Partial<Options> = {};
  if (parameters.temperature !== undefined) options.temperature = parameters.temperature;
  if (parameters.maxTokens !== undefined) options.num_predict = parameters.maxTokens;
  if (parameters.topP !== undefined) options.top_p = parameters.topP;
  if (parameters.topK !== undefined) options.top_k = parameters.topK;
  if (parameters.stop !== undefined) options.stop = [...parameters.stop];
  if (parameters.seed !== undefined) options.seed = parameters.seed;
  if (parameters.frequencyPenalty !== undefined) options.frequency_penalty = parameters.frequencyPenalty;
  if (parameters.presencePenalty !== undefined) options.presence_penalty = parameters.presencePenalty;
  return options;
}

/** Ollama's levels are low/medium/high; "minimal" is the nearest, "low". */
function toThink(effort: ChatModelParameters["reasoningEffort"]): ThinkValue | undefined {
  if (effort === undefined) return undefined;
  return effort === "minimal" ? "low" : effort;
}
