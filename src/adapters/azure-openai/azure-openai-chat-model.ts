import type { AzureOpenAI } from "openai";
import { loadOpenAISDK } from "../openai/load-openai-sdk.js";
import type { ProviderErrorReason } from "../../core/errors/provider-error.js";
import { OpenAIChatModel } from "../openai/openai-chat-model.js";
import type { OpenAIChatModelOptions } from "../openai/openai-chat-model.js";

/** The GA api-version used when neither the option nor OPENAI_API_VERSION sets one. */
export const defaultAzureAPIVersion = "2024-10-21";

export interface AzureOpenAIChatModelOptions extends Omit<OpenAIChatModelOptions, "baseURL" | "organization" | "client"> {
  /** e.g. `https://my-resource.openai.azure.com`. @default process.env.AZURE_OPENAI_ENDPOINT */
  endpoint?: string;
  /** Sent as the `api-key` header. @default process.env.AZURE_OPENAI_API_KEY */
  apiKey?: string;
  /** @default process.env.OPENAI_API_VERSION ?? "2024-10-21" */
  apiVersion?: string;
  /** Microsoft Entra ID instead of a key: returns a bearer token (e.g. from `@azure/identity`). @default none (the API key is used) */
  azureADTokenProvider?: () => Promise<string>;
  /** A ready `AzureOpenAI` client, used as it is, its own retries turned off per request (keelson retries). @default a client built from the options above */
  client?: AzureOpenAI;
}

/**
 * A chat model on an Azure OpenAI deployment: the OpenAI adapter through the SDK's `AzureOpenAI`
 * client (`/openai/deployments/<deployment>/chat/completions?api-version=…`, `api-key` header or an
 * Entra ID token). The model id is the deployment name. Azure's content-filter annotations
 * (`content_filter_results`, `prompt_filter_results`) stay in `output.raw`.
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
    const apiVersion = (this.client as AzureOpenAI).apiVersion;
    return `${super.endpoint}?api-version=${apiVersion}`;
  }

  protected override errorHints(): Partial<Record<ProviderErrorReason, string>> {
    return {
      authentication: "Check the apiKey option or AZURE_OPENAI_API_KEY (or the Entra ID token provider's role assignment).",
      "not-found":
        `Azure wants the deployment name, not the model name: check that a deployment named '${this.modelId}' ` +
        `exists on ${this.client.baseURL} and that the api-version is one it serves.`,
    };
  }
}

interface AzureClientSettings {
  endpoint: string | undefined;
  apiKey: string | undefined;
  apiVersion: string | undefined;
  azureADTokenProvider: (() => Promise<string>) | undefined;
  headers: Record<string, string> | undefined;
}

function createAzureClient(deployment: string, settings: AzureClientSettings): AzureOpenAI {
  const endpoint = settings.endpoint ?? env("AZURE_OPENAI_ENDPOINT");
  if (endpoint === undefined) {
    throw new TypeError("AzureOpenAIChatModel needs an endpoint: pass { endpoint } or set AZURE_OPENAI_ENDPOINT.");
  }
  const apiKey = settings.azureADTokenProvider ? undefined : (settings.apiKey ?? env("AZURE_OPENAI_API_KEY"));
  if (apiKey === undefined && !settings.azureADTokenProvider) {
    throw new TypeError("AzureOpenAIChatModel needs credentials: pass { apiKey } or { azureADTokenProvider }, or set AZURE_OPENAI_API_KEY.");
  }
  const { AzureOpenAI: AzureOpenAIClient } = loadOpenAISDK();
  return new AzureOpenAIClient({
    endpoint,
    deployment,
    apiVersion: settings.apiVersion ?? env("OPENAI_API_VERSION") ?? defaultAzureAPIVersion,
    ...(apiKey === undefined ? {} : { apiKey }),
    ...(settings.azureADTokenProvider ? { azureADTokenProvider: settings.azureADTokenProvider } : {}),
    ...(settings.headers === undefined ? {} : { defaultHeaders: settings.headers }),
    // The SDK reads OPENAI_BASE_URL when baseURL is unset and then refuses `endpoint` beside it.
    baseURL: null,
    maxRetries: 0,
  });
}

function env(name: string): string | undefined {
  const value = process.env[name];
  return value === undefined || value === "" ? undefined : value;
}
