import type { OpenAIChatModelOptions, OpenAIClientLike } from "../openai/openai-chat-model-options.js";

export interface AzureOpenAIChatModelOptions extends Omit<
  OpenAIChatModelOptions,
  "baseURL" | "organization" | "client"
> {
  /**
   * e.g. `https://my-resource.openai.azure.com` (the `/openai/deployments/…` path), or one ending in
   * `/openai/v1` for Azure's v1 GA API (`/openai/v1/chat/completions`, the deployment as the model).
   * @default process.env.AZURE_OPENAI_ENDPOINT
   */
  endpoint?: string | undefined;
  /** Sent as the `api-key` header (as a bearer token on the v1 API). @default process.env.AZURE_OPENAI_API_KEY */
  apiKey?: string | undefined;
  /** On the v1 API, sent only when given (e.g. `"preview"`). @default process.env.OPENAI_API_VERSION ?? "2024-10-21" */
  apiVersion?: string | undefined;
  /** Microsoft Entra ID instead of a key: returns a bearer token (e.g. from `@azure/identity`). @default none (the API key is used) */
  azureADTokenProvider?: (() => Promise<string>) | undefined;
  /** A ready `AzureOpenAI` client, used as it is, its own retries turned off per request (keelson retries). @default a client built from the options above */
  client?: OpenAIClientLike | undefined;
}
