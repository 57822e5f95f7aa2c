export { OllamaChatModel, defaultOllamaHost } from "./ollama-chat-model.js";
export type { OllamaChatModelOptions } from "./ollama-chat-model-options.js";
