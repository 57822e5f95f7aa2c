import type { APIError } from "openai";
import type { ProviderErrorOptions, RejectedParameter } from "../../core/errors/provider-error.js";
import { ProviderError, reasonFromStatus } from "../../core/errors/provider-error.js";
import type { ProviderToolChoice } from "../../core/input.js";
import { parseRetryAfter } from "../../core/retry/parse-retry-after.js";
import { maxServerTextLength, redactedExcerpt } from "../../internal/redact-secrets.js";
import { contentFilterCodes, secretsOf, statusOf, whereOf, type OpenAIErrorContext } from "./openai-error-context.js";
import { refusedRequestPart } from "./refused-request-part.js";

/**
 * An SDK error the server answered (an HTTP error status, or an error event inside a stream that
 * had started) as a ProviderError: its reason from the status, a filtered prompt or an exhausted
 * quota told apart by the code, a refused tool_choice or request part named for core to learn from,
 * and a 404 that is no API error reported as a wrong URL.
 */
export function mapOpenAIStatusError(
  sdkError: APIError,
  context: OpenAIErrorContext,
  options: ProviderErrorOptions,
): ProviderError {
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

/** Whether a response body is the provider's JSON error (`{ message, type?, code? }`), not a page or a text. */
function isAPIErrorBody(body: unknown): boolean {
  return body !== null && typeof body === "object" && typeof (body as { message?: unknown }).message === "string";
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

/** A 400 (or 422) that names tool_choice as the refused parameter or says its value is unsupported. */
function rejectedToolChoice(error: APIError, sent: ProviderToolChoice | undefined): RejectedParameter | undefined {
  if (sent === undefined || (error.status !== 400 && error.status !== 422)) return undefined;
  const refuses =
    error.param === "tool_choice" ||
    (/tool[_ ]choice/i.test(error.message) &&
      /unsupported|not supported|does not support|invalid|only|requires|must/i.test(error.message));
  if (!refuses) return undefined;
  return { name: "tool_choice", value: typeof sent === "string" ? sent : "single" };
}
