/**
 * `AnthropicChatModel`: Claude through Anthropic's Messages API.
 * @module keelson/anthropic
 */
export { AnthropicChatModel, type AnthropicChatModelOptions } from "./anthropic-chat-model.js";
export type { AnthropicCacheControl } from "./anthropic-cache-control.js";
