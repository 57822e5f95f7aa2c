import type OpenAI from "openai";
import { guardedFetch } from "../../internal/guarded-fetch.js";
import { platformFetch } from "../../internal/platform-fetch.js";
import { withEnvelopedErrors } from "./openai-error-body.js";
import { loadOpenAISDK } from "./load-openai-sdk.js";

const openAIBaseURL = "https://api.openai.com/v1";

export interface OpenAIClientSettings {
  apiKey: string | undefined;
  baseURL: string | undefined;
  organization: string | undefined;
  headers: Record<string, string> | undefined;
  /** The response body cap (see `maxResponseBytes`). */
  maxResponseBytes: number;
}

/**
 * The SDK client for the given settings (then the environment), with the SDK's retries off, that
 * reads an error body without OpenAI's `error` envelope too (see `envelopeErrorBody`).
 */
export function createOpenAIClient(settings: OpenAIClientSettings): OpenAI {
  const baseURL = settings.baseURL ?? env("OPENAI_BASE_URL") ?? openAIBaseURL;
  let apiKey = settings.apiKey ?? env("OPENAI_API_KEY");
  if (apiKey === undefined) {
    if (isOpenAIBaseURL(baseURL)) {
      throw new TypeError("OpenAIChatModel needs an API key: pass { apiKey } or set OPENAI_API_KEY.");
    }
    apiKey = "not-needed"; // a local OpenAI-compatible server usually takes none
  }
  const OpenAIClient = withEnvelopedErrors(loadOpenAISDK().OpenAI);
  return new OpenAIClient({
    apiKey,
    baseURL,
    ...(settings.organization === undefined ? {} : { organization: settings.organization }),
    ...(settings.headers === undefined ? {} : { defaultHeaders: settings.headers }),
    maxRetries: 0,
    // The platform fetch; the headers given are credentials too on a redirect to another origin.
    // Bodies capped, and a stream answered with a web page refused.
    fetch: guardedFetch(platformFetch(Object.keys(settings.headers ?? {})), settings.maxResponseBytes),
    // The SDK's own logging (an SSE line it cannot parse, with whatever the server echoed) stays quiet: keelson reports.
    logLevel: "off",
  });
}

/** Whether requests go to OpenAI itself rather than a compatible gateway. */
export function isOpenAIBaseURL(url: string): boolean {
  return trimSlash(url) === openAIBaseURL;
}

/** An environment variable, an empty one as unset. */
export function env(name: string): string | undefined {
  const value = process.env[name];
  return value === undefined || value === "" ? undefined : value;
}

export function trimSlash(url: string): string {
  return url.replace(/\/+$/, "");
}
