/**
 * `AzureOpenAIChatModel`: a deployment on Azure OpenAI.
 * @module keelson/azure-openai
 */
export {
  AzureOpenAIChatModel,
  defaultAzureAPIVersion,
  type AzureOpenAIChatModelOptions,
} from "./azure-openai-chat-model.js";
