import type { ProviderErrorReason, RejectedParameter } from "../../core/errors/provider-error.js";
import { ProviderError, reasonFromStatus } from "../../core/errors/provider-error.js";
import type { ProviderToolChoice } from "../../core/input.js";
import { parseRetryAfter } from "../../core/retry/parse-retry-after.js";
import { abortError } from "../../internal/abort.js";
import { maxServerTextLength, redactedExcerpt, redactSecrets } from "../../internal/redact-secrets.js";
import { transportRefusal } from "../../core/transport/transport-refusal.js";

export interface AnthropicErrorContext {
  modelId: string;
  /** The API key, kept out of every message. */
  apiKey?: string | undefined;
  /** Other credentials the client sends (an `authToken`), kept out as the key is. */
  secrets?: readonly string[] | undefined;
  /** The tool_choice the request sent, to report a refusal of it to the ladder. */
  toolChoice?: ProviderToolChoice | undefined;
}

function secretsOf(context: AnthropicErrorContext): (string | undefined)[] {
  return [context.apiKey, ...(context.secrets ?? [])];
}

/** What to do next, per reason, in Anthropic's words. */
const hints: Partial<Record<ProviderErrorReason, string>> = {
  authentication: "Check the API key (the apiKey option or ANTHROPIC_API_KEY).",
};

/** Anthropic's error `type`s that are not what their HTTP status says. */
const reasonByType: Record<string, ProviderErrorReason> = {
  overloaded_error: "server",
  rate_limit_error: "rate-limit",
  authentication_error: "authentication",
  permission_error: "authentication",
  not_found_error: "not-found",
  request_too_large: "invalid-request",
  timeout_error: "timeout",
};

/**
 * An `@anthropic-ai/sdk` error as a ProviderError (the SDK error is its `cause`), with Anthropic's
 * `error.type` as its `code`: 429 `rate_limit_error` and 529 `overloaded_error` are retryable and
 * carry `retry-after`, 401 is `authentication`, a 400 `invalid_request_error` is not retried. An
 * `error` event inside a stream that had started (no status) is the server's error. Classes are
 * matched by name, so a client from another copy of the SDK maps the same; anything else is
 * returned unchanged.
 */
export function mapAnthropicError(error: unknown, context: AnthropicErrorContext): unknown {
  const name = (error as { constructor?: { name?: string } } | null)?.constructor?.name ?? "";
  if (name === "APIUserAbortError") return abortError(undefined);
  const refusal = transportRefusal(error, {
    providerId: "anthropic",
    modelId: context.modelId,
    where: `anthropic ${context.modelId}`,
    pageHint:
      "Check that baseURL points at Anthropic's API (https://api.anthropic.com) and not at a proxy's or a login page.",
    secrets: secretsOf(context),
  });
  if (refusal) return refusal;
  if (!isSDKError(error)) return mapUnreadableResponse(error, context);
  // The cause is a copy without the key (some gateways echo it); the SDK's error is never changed.
  const sdkError = redactSecrets(error, secretsOf(context)) as SDKError;
  const where = `anthropic ${context.modelId}`;
  const options = { providerId: "anthropic", modelId: context.modelId, cause: sdkError };
  // What the server said, at most maxServerTextLength characters of it: a proxy's 5 MB error page is no message.
  const said = excerpt(sdkError.message, context);
  if (name === "APIConnectionTimeoutError")
    return new ProviderError(`${where}: the request timed out.`, { ...options, reason: "timeout" });
  if (name === "APIConnectionError" || (sdkError.status === undefined && !sdkError.error)) {
    const cause = sdkError.cause instanceof Error ? ` (${excerpt(sdkError.cause.message, context)})` : "";
    return new ProviderError(`${where}: could not reach the API: ${said}${cause}`, {
      ...options,
      reason: "network",
    });
  }
  const status = sdkError.status;
  const type = errorType(sdkError);
  const reason: ProviderErrorReason =
    (type === undefined ? undefined : reasonByType[type]) ??
    (status === undefined ? "server" : reasonFromStatus(status));
  const rejectedParameter = rejectedToolChoice(sdkError, context.toolChoice);
  const hint = rejectedParameter
    ? `The model refused tool_choice '${rejectedParameter.value}'.`
    : reason === "not-found"
      ? `Check the model id '${context.modelId}'.`
      : hints[reason];
  return new ProviderError(`${where}: ${said}${hint ? ` ${hint}` : ""}`, {
    ...options,
    statusCode: status,
    reason,
    // A 529 (or an overloaded_error event inside a stream) passes by waiting, whatever its status says.
    isRetryable: type === "overloaded_error" ? true : undefined,
    retryAfterMs: parseRetryAfter(sdkError.headers),
    code: type,
    rejectedParameter,
  });
}

interface SDKError extends Error {
  status: number | undefined;
  headers: Headers | undefined;
  error: unknown;
  type?: string | null;
}

/** Anthropic's `error.type` (`invalid_request_error`, `overloaded_error`, …), from the SDK or the body. */
function errorType(error: SDKError): string | undefined {
  if (typeof error.type === "string") return error.type;
  const body = error.error as { error?: { type?: unknown }; type?: unknown } | undefined;
  const inner = body?.error?.type;
  return typeof inner === "string" ? inner : undefined;
}

/** A 400 that says the sent tool_choice cannot be honoured (thinking with a forced tool, say). */
function rejectedToolChoice(error: SDKError, sent: ProviderToolChoice | undefined): RejectedParameter | undefined {
  if (sent === undefined || sent === "auto" || error.status !== 400) return undefined;
  if (!/tool_choice/i.test(error.message)) return undefined;
  return { name: "tool_choice", value: typeof sent === "string" ? sent : "single" };
}

function mapUnreadableResponse(error: unknown, context: AnthropicErrorContext): unknown {
  const where = `anthropic ${context.modelId}`;
  const options = { providerId: "anthropic", modelId: context.modelId, cause: error };
  if (error instanceof SyntaxError) {
    return new ProviderError(
      `${where}: the API sent a body that is not valid JSON (${excerpt(error.message, context)}).`,
      { ...options, reason: "server" },
    );
  }
  if (error instanceof TypeError && error.message === "terminated") {
    return new ProviderError(`${where}: the connection was lost while the response was being read.`, {
      ...options,
      reason: "network",
    });
  }
  return error;
}

function excerpt(text: unknown, context: AnthropicErrorContext): string {
  return redactedExcerpt(typeof text === "string" ? text : String(text), secretsOf(context), maxServerTextLength);
}

function isSDKError(error: unknown): boolean {
  const name = (error as { constructor?: { name?: string } } | null)?.constructor?.name ?? "";
  return (
    name.endsWith("Error") && error !== null && typeof error === "object" && "status" in error && "headers" in error
  );
}
