/**
 * `GoogleChatModel`: Gemini through `@google/genai` (the Gemini Developer API or Vertex AI).
 * @module keelson/google
 */
export { GoogleChatModel } from "./google-chat-model.js";
export type { GoogleChatModelOptions, GoogleClientLike } from "./google-chat-model-options.js";
