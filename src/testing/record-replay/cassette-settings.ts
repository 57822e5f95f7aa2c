import type { ChatModel } from "../../core/model/chat-model.js";
import type { ChatModelOptions } from "../../core/model/chat-model-options.js";
import type { Cassette, CassetteSettings } from "./cassette.js";

/** The capability profile of a model, as a cassette keeps it. */
export function profileOf(model: ChatModel): Cassette["profile"] {
  return {
    toolChoiceSupport: [...model.toolChoiceSupport],
    supportsToolCalling: model.supportsToolCalling,
    supportsStructuredOutput: model.supportsStructuredOutput,
    supportsTopLevelUnion: model.supportsTopLevelUnion,
    supportsResponseFormatWithTools: model.supportsResponseFormatWithTools,
    strictResponseFormat: model.strictResponseFormat,
    unsupportedParameters: [...model.unsupportedParameters],
  };
}

/** The settings of a model that shape its provider inputs and what it accepts, as a cassette keeps them. */
export function settingsOf(model: ChatModel): CassetteSettings {
  return {
    ...(model.parameters === undefined ? {} : { parameters: structuredClone(model.parameters) }),
    allowParallelToolCalls: model.allowParallelToolCalls,
    ignoreParallelToolCalls: model.ignoreParallelToolCalls,
    fixInvalidToolCalls: model.fixInvalidToolCalls,
    recoverTextToolCallsOnAuto: model.recoverTextToolCallsOnAuto,
    retryOnEmptyResponse: model.retryOnEmptyResponse,
    toolCallFallbackViaResponseFormat: model.toolCallFallbackViaResponseFormat,
    strictParameters: model.strictParameters,
    maxRepairAttempts: model.maxRepairAttempts,
    maxRetries: model.retry.maxRetries,
  };
}

/** Settings as constructor options (the transport retry count left to the caller). */
export function optionsOf(settings: CassetteSettings | undefined): ChatModelOptions {
  if (settings === undefined) return {};
  const { maxRetries: _maxRetries, ...options } = settings;
  return options;
}
