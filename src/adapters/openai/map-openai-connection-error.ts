import type { APIError } from "openai";
import type { ProviderErrorOptions } from "../../core/errors/provider-error.js";
import { ProviderError } from "../../core/errors/provider-error.js";
import { fetchGaveUp, fetchGaveUpAdvice } from "../../internal/fetch-gave-up.js";
import { networkCause } from "../../internal/network-cause.js";
import { maxServerTextLength, redactedExcerpt } from "../../internal/redact-secrets.js";
import { secretsOf, whereOf, type OpenAIErrorContext } from "./openai-error-context.js";

/**
 * An SDK error with no HTTP answer behind it, as a ProviderError: the request timed out (the SDK's
 * timeout, or Node's fetch giving up first), or the API could not be reached. undefined for an
 * error the server answered.
 */
export function mapOpenAIConnectionError(
  sdkError: APIError,
  context: OpenAIErrorContext,
  options: ProviderErrorOptions,
): ProviderError | undefined {
  const where = whereOf(context);
  const gaveUp = fetchGaveUp(sdkError);
  if (sdkError.constructor.name === "APIConnectionTimeoutError") {
    if (gaveUp || context.fetchLimitFirst) return fetchGaveUpError(where, gaveUp, options);
    return new ProviderError(`${where}: the request timed out.`, { ...options, reason: "timeout" });
  }
  if (gaveUp) return fetchGaveUpError(where, gaveUp, options);
  if (sdkError.constructor.name !== "APIConnectionError" && (sdkError.status !== undefined || sdkError.error))
    return undefined;
  const found = networkCause(sdkError);
  const cause = found
    ? `${found.meaning} (${found.code})`
    : sdkError.cause instanceof Error
      ? `${sdkError.message} (${sdkError.cause.message})`
      : sdkError.message;
  const at = context.baseURL ? ` at ${context.baseURL}` : "";
  const fix = found?.code === "ECONNREFUSED" ? " Start the server, or point baseURL at the port it listens on." : "";
  const reached = redactedExcerpt(`${cause}`, secretsOf(context), maxServerTextLength);
  return new ProviderError(`${where}: could not reach the API${at}: ${reached}.${fix}`, {
    ...options,
    reason: "network",
    code: found?.code,
  });
}

/** A request Node's fetch gave up on (a call without a timeout that took past 300 s): not retried, with what to do. */
export function fetchGaveUpError(
  where: string,
  gaveUp: { code: string; waitingFor: string } | undefined,
  options: ProviderErrorOptions,
): ProviderError {
  return new ProviderError(`${where}: ${fetchGaveUpAdvice(gaveUp?.waitingFor ?? "the response")}`, {
    ...options,
    reason: "timeout",
    code: gaveUp?.code,
    isRetryable: false,
  });
}
