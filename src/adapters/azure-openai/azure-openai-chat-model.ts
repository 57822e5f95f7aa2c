import type { AzureOpenAI } from "openai";
import type { ProviderErrorReason } from "../../core/errors/provider-error.js";
import { OpenAIChatModel } from "../openai/openai-chat-model.js";
import type { AzureOpenAIChatModelOptions } from "./azure-openai-chat-model-options.js";
import { checkMaxResponseBytes } from "../../internal/max-response-bytes.js";
import { createAzureClient } from "./create-azure-client.js";

export { defaultAzureAPIVersion } from "./create-azure-client.js";
export type { AzureOpenAIChatModelOptions } from "./azure-openai-chat-model-options.js";

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
      client:
        (client as AzureOpenAI | undefined) ??
        createAzureClient(deployment, {
          endpoint,
          apiKey,
          apiVersion,
          azureADTokenProvider,
          headers,
          maxResponseBytes: checkMaxResponseBytes(rest.maxResponseBytes),
        }),
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
