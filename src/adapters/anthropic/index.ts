/**
 * `AnthropicChatModel`: Claude through Anthropic's Messages API.
 * @module keelson/anthropic
 */
export { AnthropicChatModel } from "./anthropic-chat-model.js";
export type { AnthropicChatModelOptions, AnthropicClientLike } from "./anthropic-chat-model-options.js";
export type { AnthropicCacheControl } from "./anthropic-cache-control.js";
