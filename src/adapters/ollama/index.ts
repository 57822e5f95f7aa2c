/**
 * `OllamaChatModel`: a model served by Ollama.
 * @module keelson/ollama
 */
export { OllamaChatModel, defaultOllamaHost } from "./ollama-chat-model.js";
export type { OllamaChatModelOptions, OllamaClientLike } from "./ollama-chat-model-options.js";
