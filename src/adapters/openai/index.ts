/**
 * `OpenAIChatModel`: OpenAI's chat completions API, or any OpenAI-compatible endpoint;
 * `OpenAIResponsesChatModel`: OpenAI's Responses API.
 * @module keelson/openai
 */
export { OpenAIChatModel } from "./openai-chat-model.js";
export type { OpenAIChatModelOptions, OpenAIClientLike } from "./openai-chat-model-options.js";
export type { MaxTokensField } from "./to-openai-request.js";
export {
  convertToOpenAIMessages,
  type ConvertToOpenAIOptions,
  type OpenAIReasoningField,
} from "./convert-to-openai-messages.js";
export { convertFromOpenAIMessages } from "./convert-from-openai-messages.js";
export { OpenAIResponsesChatModel, type OpenAIResponsesChatModelOptions } from "./openai-responses-chat-model.js";
