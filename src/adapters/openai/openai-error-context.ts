import type { ProviderErrorReason } from "../../core/errors/provider-error.js";
import type { ProviderToolChoice } from "../../core/input.js";

/** What the request carried, as the refusal check needs it: its body, and the field reasoning went back in. */
export interface SentRequest {
  body: object;
  /** The assistant-message field that carried earlier turns' reasoning back, when the model sends it. */
  reasoningField?: string | undefined;
}

/**
 * What the OpenAI error mapper (openai-error.ts, and the body and refusal readers beside it) knows of
 * the request that failed.
 */
export interface OpenAIErrorContext {
  providerId: string;
  modelId: string;
  /** The API key, kept out of every message (some gateways echo it back). */
  apiKey?: string | undefined;
  /** The client's base URL, shown when it could not be reached or answered for a path it does not have. */
  baseURL?: string | undefined;
  /** Other credentials the call used (an Entra ID token), kept out the same way. */
  secrets?: readonly string[] | undefined;
  /** The tool_choice the request sent, to report a refusal of it to the ladder. */
  toolChoice?: ProviderToolChoice | undefined;
  /** What the request carried, to name the part a 400 refused (core learns from it). */
  sent?: SentRequest | undefined;
  /** What to do next, per reason, in this provider's words. */
  hints?: Partial<Record<ProviderErrorReason, string>> | undefined;
  /**
   * Node's fetch gives up (300 s) before the SDK's own timeout would: the call has no timeout of
   * its own, and the client uses Node's fetch with a timeout past 300 s. The SDK reports fetch
   * giving up as its own timeout, without the cause, so only this tells the two apart.
   */
  fetchLimitFirst?: boolean | undefined;
}

/** What to check when a web page (a proxy's, a login page) answered where the API belongs. */
export const pageHint = "Check that baseURL points at an OpenAI-compatible API and not at a proxy's or a login page.";

/** The error codes of a filtered prompt or reply (a 400 that is no malformed request). */
export const contentFilterCodes = new Set(["content_filter", "content_policy_violation"]);

/** The credentials no message or cause may carry. */
export function secretsOf(context: OpenAIErrorContext): (string | undefined)[] {
  return [context.apiKey, ...(context.secrets ?? [])];
}

/** How messages start: the provider and the model. */
export function whereOf(context: OpenAIErrorContext): string {
  return `${context.providerId} ${context.modelId}`;
}

/** A numeric error code that is an HTTP error status, as OpenRouter and vLLM send one. */
export function statusOf(code: unknown): number | undefined {
  return typeof code === "number" && Number.isInteger(code) && code >= 400 && code <= 599 ? code : undefined;
}
