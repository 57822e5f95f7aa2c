import type OpenAI from "openai";
import { lazyRequireSDK } from "../../core/loading/lazy-require.js";
import { keepIssuedCredentials } from "../../internal/issued-credentials.js";
import { guardedFetch } from "../../internal/guarded-fetch.js";
import { platformFetch } from "../../internal/platform-fetch.js";
import { env } from "../openai/create-openai-client.js";
import { loadOpenAISDK } from "../openai/load-openai-sdk.js";
import { entraTokenProvider } from "./entra-token-provider.js";

/** The GA api-version used when neither the option nor OPENAI_API_VERSION sets one. */
export const defaultAzureAPIVersion = "2024-10-21";

export interface AzureClientSettings {
  endpoint: string | undefined;
  apiKey: string | undefined;
  apiVersion: string | undefined;
  azureADTokenProvider: (() => Promise<string>) | undefined;
  headers: Record<string, string> | undefined;
  /** The response body cap (see `maxResponseBytes`). */
  maxResponseBytes: number;
}

/**
 * The SDK client for a deployment, with the SDK's retries off: `AzureOpenAI` on the classic
 * `/openai/deployments/<deployment>/…?api-version=…` path, or — for an endpoint that ends in
 * `/openai/v1` — the plain `OpenAI` client on Azure's v1 GA API, which takes the deployment as the
 * model and needs no api-version (it is sent only when the option sets one, e.g. `"preview"`).
 */
export function createAzureClient(deployment: string, settings: AzureClientSettings): OpenAI {
  const endpoint = settings.endpoint ?? env("AZURE_OPENAI_ENDPOINT");
  if (endpoint === undefined) {
    throw new TypeError("AzureOpenAIChatModel needs an endpoint: pass { endpoint } or set AZURE_OPENAI_ENDPOINT.");
  }
  const apiKey = settings.azureADTokenProvider ? undefined : (settings.apiKey ?? env("AZURE_OPENAI_API_KEY"));
  if (apiKey === undefined && !settings.azureADTokenProvider) {
    throw new TypeError(
      "AzureOpenAIChatModel needs credentials: pass { apiKey } or { azureADTokenProvider }, or set AZURE_OPENAI_API_KEY.",
    );
  }
  const issued: string[] = [];
  const tokenProvider =
    settings.azureADTokenProvider &&
    entraTokenProvider(settings.azureADTokenProvider, { providerId: "azure-openai", modelId: deployment }, issued);
  const client = buildClient(deployment, endpoint, apiKey, tokenProvider, settings);
  // The tokens the provider gives, cut out of errors as a static key is (openai-calls reads them by client).
  if (tokenProvider) keepIssuedCredentials(client, issued);
  return client;
}

function buildClient(
  deployment: string,
  endpoint: string,
  apiKey: string | undefined,
  tokenProvider: (() => Promise<string>) | undefined,
  settings: AzureClientSettings,
): OpenAI {
  const common = {
    ...(settings.headers === undefined ? {} : { defaultHeaders: settings.headers }),
    maxRetries: 0,
    fetch: guardedFetch(platformFetch(Object.keys(settings.headers ?? {})), settings.maxResponseBytes),
    // The SDK's own logging (an SSE line it cannot parse, with whatever the server echoed) stays quiet: keelson reports.
    logLevel: "off" as const,
  };
  const { AzureOpenAI, OpenAI: OpenAIClient } = loadOpenAISDK();
  const v1 = /\/openai\/v1\/*$/.exec(endpoint);
  if (v1) {
    if (tokenProvider) requireKeyFunctions(installedOpenAIVersion());
    return new OpenAIClient({
      ...common,
      baseURL: endpoint.slice(0, v1.index) + "/openai/v1",
      // The v1 API takes a key or an Entra ID token as a bearer token; the SDK asks the provider on every request.
      apiKey: apiKey ?? tokenProvider!,
      ...(settings.apiVersion === undefined ? {} : { defaultQuery: { "api-version": settings.apiVersion } }),
    });
  }
  return new AzureOpenAI({
    ...common,
    endpoint,
    deployment,
    apiVersion: settings.apiVersion ?? env("OPENAI_API_VERSION") ?? defaultAzureAPIVersion,
    // Never undefined: the SDK would read AZURE_OPENAI_API_KEY itself and refuse it beside a token provider.
    apiKey: apiKey ?? "",
    ...(tokenProvider ? { azureADTokenProvider: tokenProvider } : {}),
    // The SDK reads OPENAI_BASE_URL when baseURL is unset and then refuses `endpoint` beside it.
    baseURL: null,
  });
}

/** The installed `openai`'s version, or undefined where it cannot be read. */
function installedOpenAIVersion(): string | undefined {
  try {
    return loadOpenAIVersion().VERSION;
  } catch {
    return undefined;
  }
}

const loadOpenAIVersion = lazyRequireSDK<{ VERSION: string }>("openai/version", "reading the openai SDK's version");

/**
 * On the v1 API the Entra ID token goes as the client's `apiKey`, as a function: openai 5.18 and
 * later call it per request; an older client would send the function's source as the key.
 */
export function requireKeyFunctions(version: string | undefined): void {
  const [major = 0, minor = 0] = (version ?? "").split(".").map(Number);
  if (version === undefined || major > 5 || (major === 5 && minor >= 18)) return;
  throw new TypeError(
    `AzureOpenAIChatModel: Entra ID on the v1 endpoint (/openai/v1) needs openai 5.18 or later, and ${version} is installed. ` +
      "Upgrade openai, or use the classic endpoint (without /openai/v1).",
  );
}
