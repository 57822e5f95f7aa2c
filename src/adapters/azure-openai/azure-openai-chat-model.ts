import type { AzureOpenAI } from "openai";
import type { ProviderErrorReason } from "../../core/errors/provider-error.js";
import { OpenAIChatModel } from "../openai/openai-chat-model.js";
import type { OpenAIChatModelOptions } from "../openai/openai-chat-model.js";
import { createAzureClient } from "./create-azure-client.js";

export { defaultAzureAPIVersion } from "./create-azure-client.js";

export interface AzureOpenAIChatModelOptions extends Omit<
  OpenAIChatModelOptions,
  "baseURL" | "organization" | "client"
> {
  /**
   * e.g. `https://my-resource.openai.azure.com` (the `/openai/deployments/…` path), or one ending in
   * `/openai/v1` for Azure's v1 GA API (`/openai/v1/chat/completions`, the deployment as the model).
   * @default process.env.AZURE_OPENAI_ENDPOINT
   */
  endpoint?: string;
  /** Sent as the `api-key` header (as a bearer token on the v1 API). @default process.env.AZURE_OPENAI_API_KEY */
  apiKey?: string;
  /** On the v1 API, sent only when given (e.g. `"preview"`). @default process.env.OPENAI_API_VERSION ?? "2024-10-21" */
  apiVersion?: string;
  /** Microsoft Entra ID instead of a key: returns a bearer token (e.g. from `@azure/identity`). @default none (the API key is used) */
  azureADTokenProvider?: () => Promise<string>;
  /** A ready `AzureOpenAI` client, used as it is, its own retries turned off per request (keelson retries). @default a client built from the options above */
  client?: AzureOpenAI;
}

/**
 * A chat model on an Azure OpenAI deployment: the OpenAI adapter through the SDK's `AzureOpenAI`
 * client (`/openai/deployments/<deployment>/chat/completions?api-version=…`, `api-key` header or an
 * Entra ID token), or Azure's v1 GA API for an endpoint ending in `/openai/v1`. The model id is the
 * deployment name. Azure's content-filter annotations (`content_filter_results`,
 * `prompt_filter_results`) stay in `output.raw`.
 */
export class AzureOpenAIChatModel extends OpenAIChatModel {
  override readonly providerId: string = "azure-openai";

  constructor(deployment: string, options: AzureOpenAIChatModelOptions = {}) {
    const { endpoint, apiKey, apiVersion, azureADTokenProvider, headers, client, ...rest } = options;
    super(deployment, {
      ...rest,
      client: client ?? createAzureClient(deployment, { endpoint, apiKey, apiVersion, azureADTokenProvider, headers }),
      // Azure honours all four; unlike a gateway, its own endpoint is not a reason to drop "required".
      toolChoiceSupport: rest.toolChoiceSupport ?? ["auto", "none", "required", "single"],
      maxTokensField: rest.maxTokensField ?? "max_completion_tokens",
      // Azure OpenAI's deployments take no reasoning back.
      sendReasoningContent: rest.sendReasoningContent ?? false,
    });
  }

  protected override get endpoint(): string {
    // The v1 API's client is the plain OpenAI one: an api-version only as a default query (e.g. "preview").
    const client = this.client as unknown as {
      apiVersion?: string;
      defaultQuery?: () => Record<string, string | undefined> | undefined;
    };
    const apiVersion = client.apiVersion ?? client.defaultQuery?.()?.["api-version"];
    return apiVersion === undefined ? super.endpoint : `${super.endpoint}?api-version=${apiVersion}`;
  }

  protected override errorHints(): Partial<Record<ProviderErrorReason, string>> {
    return {
      authentication:
        "Check the apiKey option or AZURE_OPENAI_API_KEY (or the Entra ID token provider's role assignment).",
      "not-found":
        `Azure wants the deployment name, not the model name: check that a deployment named '${this.modelId}' ` +
        `exists on ${this.client.baseURL} and that the api-version is one it serves.`,
    };
  }
}
