export { AzureOpenAIChatModel, defaultAzureAPIVersion, type AzureOpenAIChatModelOptions } from "./azure-openai-chat-model.js";
