import type { ChatModel } from "../chat-model.js";
import type { CallSettings } from "./prepare-call.js";

/** A model's settings as a call is prepared with them, read afresh for every call (they may change). */
export function callSettingsOf(model: ChatModel): CallSettings {
  return {
    providerId: model.providerId,
    modelId: model.modelId,
    modelClass: model.constructor.name,
    toolChoiceSupport: model.toolChoiceSupport,
    supportsToolCalling: model.supportsToolCalling,
    supportsStructuredOutput: model.supportsStructuredOutput,
    supportsTopLevelUnion: model.supportsTopLevelUnion,
    strictResponseFormat: model.strictResponseFormat,
    toolCallFallbackViaResponseFormat: model.toolCallFallbackViaResponseFormat,
    allowParallelToolCalls: model.allowParallelToolCalls,
    ignoreParallelToolCalls: model.ignoreParallelToolCalls,
    fixInvalidToolCalls: model.fixInvalidToolCalls,
    recoverTextToolCallsOnAuto: model.recoverTextToolCallsOnAuto,
    retryOnEmptyResponse: model.retryOnEmptyResponse,
    maxRetries: model.retry.maxRetries,
    parameters: model.parameters,
  };
}
