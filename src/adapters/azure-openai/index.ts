/**
 * `AzureOpenAIChatModel`: a deployment on Azure OpenAI.
 * @module keelson/azure-openai
 */
export { AzureOpenAIChatModel, defaultAzureAPIVersion } from "./azure-openai-chat-model.js";
export type { AzureOpenAIChatModelOptions } from "./azure-openai-chat-model-options.js";
