import type { APIError } from "openai";
import type { ProviderErrorOptions } from "../../core/errors/provider-error.js";
import { ProviderError, reasonFromStatus } from "../../core/errors/provider-error.js";
import { parseRetryAfter } from "../../core/retry/parse-retry-after.js";
import { transportRefusal } from "../../core/transport/transport-refusal.js";
import { abortError } from "../../internal/abort.js";
import { fetchGaveUp, fetchGaveUpAdvice } from "../../internal/fetch-gave-up.js";
import { networkCause } from "../../internal/network-cause.js";
import { maxServerTextLength, redactedExcerpt, redactSecrets } from "../../internal/redact-secrets.js";
import { isAPIErrorBody } from "./openai-error-body.js";
import {
  contentFilterCodes,
  pageHint,
  secretsOf,
  statusOf,
  whereOf,
  type OpenAIErrorContext,
} from "./openai-error-context.js";
import { refusedRequestPart, rejectedToolChoice } from "./refused-request-part.js";

// The OpenAI error mapper: from whatever the SDK raised to a ProviderError. Its context is
// openai-error-context.ts; what an error body looks like (and an error a server reports in place of a
// reply) is openai-error-body.ts; the request part a 400 refused is refused-request-part.ts.

/**
 * An `openai` SDK error as a ProviderError (the SDK error is its `cause`), by family: what keelson's
 * transport refused, no answer (a timeout, an unreachable API), an answer with an error status, and what
 * the SDK lets through from below it (a body that is not JSON, a lost connection). Anything else is
 * returned unchanged. Classes are matched by name as well as by `instanceof`, so a client from another
 * copy of the SDK maps the same.
 */
export function mapOpenAIError(error: unknown, context: OpenAIErrorContext): unknown {
  // The SDK's own abort error is named "Error"; the rest of keelson knows an abort as the platform's AbortError.
  if (classOf(error) === "APIUserAbortError") return abortError(undefined);
  const refusal = transportRefusal(error, {
    ...context,
    where: whereOf(context),
    pageHint,
    secrets: secretsOf(context),
  });
  if (refusal) return refusal;
  if (!isSDKError(error)) return unreadableResponseError(error, context);
  // The cause is a copy of the SDK error without the key (some gateways echo it); the original is never changed.
  const sdkError = redactSecrets(error as APIError, secretsOf(context));
  const options = { providerId: context.providerId, modelId: context.modelId, cause: sdkError };
  return connectionError(sdkError, context, options) ?? statusError(sdkError, context, options);
}

function classOf(error: unknown): string {
  return (error as { constructor?: { name?: string } } | null)?.constructor?.name ?? "";
}

function isSDKError(error: unknown): boolean {
  return (
    classOf(error).endsWith("Error") &&
    error !== null &&
    typeof error === "object" &&
    "status" in error &&
    "headers" in error
  );
}

// No answer: a timeout or an unreachable API.

/**
 * An SDK error with no HTTP answer behind it: the request timed out (the SDK's timeout, or Node's fetch
 * giving up first), or the API could not be reached. undefined for an error the server answered.
 */
function connectionError(
  sdkError: APIError,
  context: OpenAIErrorContext,
  options: ProviderErrorOptions,
): ProviderError | undefined {
  const where = whereOf(context);
  const gaveUp = fetchGaveUp(sdkError);
  if (classOf(sdkError) === "APIConnectionTimeoutError") {
    if (gaveUp || context.fetchLimitFirst) return fetchGaveUpError(where, gaveUp, options);
    return new ProviderError(`${where}: the request timed out.`, { ...options, reason: "timeout" });
  }
  if (gaveUp) return fetchGaveUpError(where, gaveUp, options);
  if (classOf(sdkError) !== "APIConnectionError" && (sdkError.status !== undefined || sdkError.error)) return undefined;
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
function fetchGaveUpError(
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

// An answer with an error status (or an error event inside a stream that had started).

/**
 * An SDK error the server answered: its reason from the status, a filtered prompt or an exhausted quota
 * told apart by the code, a refused tool_choice or request part named for core to learn from, and a 404
 * that is no API error reported as a wrong URL.
 */
function statusError(sdkError: APIError, context: OpenAIErrorContext, options: ProviderErrorOptions): ProviderError {
  if (sdkError.status === 404 && !isAPIErrorBody(sdkError.error)) return wrongPathError(sdkError, context, options);
  // An error event inside a stream has no HTTP status; OpenRouter's carries one as a numeric `code`.
  const status = sdkError.status ?? statusOf(sdkError.code);
  const code = typeof sdkError.code === "string" ? sdkError.code : undefined;
  // A filtered prompt is a 400 (never retried); the code tells it apart from a malformed request.
  // No status but a body: an error event inside a stream that had started, reported by the server.
  const reason = contentFilterCodes.has(code ?? "")
    ? "content-policy"
    : status === undefined
      ? "server"
      : reasonFromStatus(status);
  // A 429 for an exhausted quota will not pass by waiting.
  const quota = code === "insufficient_quota";
  const rejectedParameter =
    rejectedToolChoice(sdkError, context.toolChoice) ?? refusedRequestPart(sdkError, context.sent);
  const hint = quota
    ? "The account has no quota left: check its plan and billing (retrying will not help)."
    : rejectedParameter?.name === "tool_choice"
      ? `The endpoint refused tool_choice '${rejectedParameter.value}'.`
      : context.hints?.[reason];
  // The SDK error was redacted before, so this message is clean too.
  const said = redactedExcerpt(sdkError.message, secretsOf(context), maxServerTextLength);
  return new ProviderError(`${whereOf(context)}: ${said}${hint ? ` ${hint}` : ""}`, {
    ...options,
    statusCode: status,
    reason,
    isRetryable: quota ? false : undefined,
    retryAfterMs: parseRetryAfter(sdkError.headers),
    code,
    rejectedParameter,
  });
}

/** A 404 whose body is not the API's error: the URL or the path is wrong (often baseURL without /v1), not the model. */
function wrongPathError(sdkError: APIError, context: OpenAIErrorContext, options: ProviderErrorOptions): ProviderError {
  const url = context.baseURL ? `${context.baseURL.replace(/\/+$/, "")}/chat/completions` : "the chat completions URL";
  const body = sdkError.message.replace(/^404\s*/, "").trim();
  const shown =
    body === "" || body === "status code (no body)" ? "no body" : `"${redactedExcerpt(body, secretsOf(context), 80)}"`;
  return new ProviderError(
    `${whereOf(context)}: ${url} answered 404 with ${shown}, not an API error: the URL or path is wrong, not the model. ` +
      "Check baseURL: an OpenAI-compatible API's usually ends in /v1 (e.g. http://localhost:8000/v1).",
    { ...options, statusCode: 404, reason: "not-found", isRetryable: false },
  );
}

// What the SDK lets through from below it.

/**
 * A body that is not JSON (`SyntaxError`), fetch giving up, a connection lost while the body was read
 * (fetch's `TypeError: terminated`), or a ProviderError raised under the SDK. Anything else is returned unchanged.
 */
function unreadableResponseError(error: unknown, context: OpenAIErrorContext): unknown {
  // A ProviderError raised under the SDK (Azure's Entra ID token provider) comes back inside the SDK's own error.
  const inner = (error as { cause?: unknown } | null)?.cause;
  if (ProviderError.isInstance(inner)) return inner;
  // A SyntaxError quotes the body it could not parse: the cause must not carry a key either.
  error = redactSecrets(error, secretsOf(context));
  const options = { providerId: context.providerId, modelId: context.modelId, cause: error };
  const where = whereOf(context);
  if (error instanceof SyntaxError) {
    // An HTML page (a proxy's, a login page) where JSON belongs: a retry gets the same page.
    const page = /^Unexpected token '<'/.test(error.message);
    return new ProviderError(
      `${where}: the API sent a body that is not valid JSON (${redactedExcerpt(error.message, secretsOf(context), maxServerTextLength)}).` +
        (page ? ` It is an HTML page. ${pageHint}` : ""),
      { ...options, reason: "server", isRetryable: !page },
    );
  }
  const gaveUp = fetchGaveUp(error);
  if (gaveUp) return fetchGaveUpError(where, gaveUp, options);
  if (error instanceof TypeError && error.message === "terminated") {
    return new ProviderError(`${where}: the connection was lost while the response was being read.`, {
      ...options,
      reason: "network",
    });
  }
  if (error instanceof TypeError && error.cause === undefined && error.message !== "fetch failed") {
    // The SDK read the 200 and tripped over its shape (the Responses API's `output` not a list): no network fault.
    return new ProviderError(
      `${where}: the SDK could not read the reply (${redactedExcerpt(error.message, secretsOf(context), 200)}). ` +
        "The server (or a gateway before it) sent a reply in a shape keelson cannot read.",
      { ...options, reason: "server", code: "unreadable_reply" },
    );
  }
  return error;
}
