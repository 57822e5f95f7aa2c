import type { Attributes } from "@opentelemetry/api";
import type { ChatModelInput, ChatModelParameters } from "../core/input.js";
import type { ChatModelOutput } from "../core/output.js";
import { genAIProviderName } from "./gen-ai-provider-name.js";

/**
 * OpenTelemetry GenAI semantic-convention attributes of a call's request. `defaults` are the model's
 * own parameters, which the call's are merged over (as the request is sent).
 */
export function requestAttributes(
  providerId: string,
  modelId: string,
  input: ChatModelInput,
  defaults?: ChatModelParameters,
): Attributes {
  const attributes: Attributes = {
    "gen_ai.operation.name": "chat",
    "gen_ai.provider.name": genAIProviderName(providerId),
    "gen_ai.request.model": modelId,
  };
  // An event carries the caller's input as given: an invalid one (null, no object) still gets its span.
  const given: Partial<ChatModelInput> = typeof input === "object" && input !== null ? input : {};
  const parameters: ChatModelParameters = { ...defaults, ...given.parameters };
  if (parameters.temperature !== undefined) attributes["gen_ai.request.temperature"] = parameters.temperature;
  if (parameters.maxTokens !== undefined) attributes["gen_ai.request.max_tokens"] = parameters.maxTokens;
  if (parameters.topP !== undefined) attributes["gen_ai.request.top_p"] = parameters.topP;
  if (parameters.topK !== undefined) attributes["gen_ai.request.top_k"] = parameters.topK;
  if (parameters.seed !== undefined) attributes["gen_ai.request.seed"] = parameters.seed;
  if (parameters.stop !== undefined) attributes["gen_ai.request.stop_sequences"] = parameters.stop;
  if (parameters.frequencyPenalty !== undefined)
    attributes["gen_ai.request.frequency_penalty"] = parameters.frequencyPenalty;
  if (parameters.presencePenalty !== undefined)
    attributes["gen_ai.request.presence_penalty"] = parameters.presencePenalty;
  // The output type the client asked for (conditionally required then): every response format is JSON.
  if (given.responseFormat !== undefined) attributes["gen_ai.output.type"] = "json";
  if (Array.isArray(given.tools) && given.tools.length > 0)
    attributes["keelson.tools"] = given.tools.map((tool) => String(tool?.name));
  return attributes;
}

/** Attributes of a call's outcome: tokens, finish reason, the ladder rung, repairs, cache. */
export function responseAttributes(output: ChatModelOutput): Attributes {
  const attributes: Attributes = {
    "gen_ai.response.finish_reasons": [output.finishReason],
    "gen_ai.usage.input_tokens": output.usage.inputTokens,
    "gen_ai.usage.output_tokens": output.usage.outputTokens,
    "keelson.tool_choice.rung": output.meta.toolChoice,
    "keelson.attempts": output.meta.attempts.length,
    "keelson.repairs": output.meta.repairs.map((repair) => repair.kind),
    "keelson.cache_hit": output.meta.cacheHit,
  };
  if (output.usage.reasoningTokens !== undefined)
    attributes["gen_ai.usage.reasoning_tokens"] = output.usage.reasoningTokens;
  if (output.usage.cachedInputTokens !== undefined)
    attributes["gen_ai.usage.cache_read.input_tokens"] = output.usage.cachedInputTokens;
  return attributes;
}
