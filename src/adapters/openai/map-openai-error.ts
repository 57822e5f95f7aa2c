import type { APIError } from "openai";
import type { ProviderErrorOptions, ProviderErrorReason, RejectedParameter } from "../../core/errors/provider-error.js";
import { ProviderError, reasonFromStatus } from "../../core/errors/provider-error.js";
import type { ProviderToolChoice } from "../../core/input.js";
import { parseRetryAfter } from "../../core/retry/parse-retry-after.js";
import { abortError } from "../../internal/abort.js";
import { fetchGaveUp, fetchGaveUpAdvice } from "../../internal/fetch-gave-up.js";
import { networkCause } from "../../internal/network-cause.js";
import { maxServerTextLength, redactedExcerpt, redactSecrets } from "../../internal/redact-secrets.js";
import { transportRefusal } from "../../core/transport/transport-refusal.js";
import { refusedRequestPart, type SentRequest } from "./refused-request-part.js";

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

const pageHint = "Check that baseURL points at an OpenAI-compatible API and not at a proxy's or a login page.";
const contentFilterCodes = new Set(["content_filter", "content_policy_violation"]);

function secretsOf(context: OpenAIErrorContext): (string | undefined)[] {
  return [context.apiKey, ...(context.secrets ?? [])];
}

/**
 * An `openai` SDK error as a ProviderError (the SDK error is its `cause`). So is what the SDK lets
 * through from below it: a body that is not JSON (`SyntaxError`) and a connection lost while the
 * body was read (fetch's `TypeError: terminated`). Anything else is returned unchanged. Classes are
 * matched by name as well as by `instanceof`, so a client from another copy of the SDK maps the same.
 */
export function mapOpenAIError(error: unknown, context: OpenAIErrorContext): unknown {
  // The SDK's own abort error is named "Error"; the rest of keelson knows an abort as the platform's AbortError.
  if ((error as { constructor?: { name?: string } } | null)?.constructor?.name === "APIUserAbortError")
    return abortError(undefined);
  const refusal = transportRefusal(error, {
    ...context,
    where: `${context.providerId} ${context.modelId}`,
    pageHint: pageHint,
    secrets: secretsOf(context),
  });
  if (refusal) return refusal;
  if (!isSDKError(error)) return mapUnreadableResponse(error, context);
  const sdkError = error as APIError;
  // The SDK error stays the cause as it came, but never with the key in it (some gateways echo it).
  const secrets = secretsOf(context);
  redactSecrets(sdkError, secrets);
  const where = `${context.providerId} ${context.modelId}`;
  const options = { providerId: context.providerId, modelId: context.modelId, cause: sdkError };
  const gaveUp = fetchGaveUp(sdkError);
  if (sdkError.constructor.name === "APIConnectionTimeoutError") {
    if (gaveUp || context.fetchLimitFirst) return fetchGaveUpError(where, gaveUp, options);
    return new ProviderError(`${where}: the request timed out.`, { ...options, reason: "timeout" });
  }
  if (gaveUp) return fetchGaveUpError(where, gaveUp, options);
  if (sdkError.constructor.name === "APIConnectionError" || (sdkError.status === undefined && !sdkError.error)) {
    const found = networkCause(sdkError);
    const cause = found
      ? `${found.meaning} (${found.code})`
      : sdkError.cause instanceof Error
        ? `${sdkError.message} (${sdkError.cause.message})`
        : sdkError.message;
    const at = context.baseURL ? ` at ${context.baseURL}` : "";
    const fix = found?.code === "ECONNREFUSED" ? " Start the server, or point baseURL at the port it listens on." : "";
    const reached = redactedExcerpt(`${cause}`, secrets, maxServerTextLength);
    return new ProviderError(`${where}: could not reach the API${at}: ${reached}.${fix}`, {
      ...options,
      reason: "network",
      code: found?.code,
    });
  }
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
  // The SDK error was redacted above, so this message is clean too.
  const said = redactedExcerpt(sdkError.message, secrets, maxServerTextLength);
  return new ProviderError(`${where}: ${said}${hint ? ` ${hint}` : ""}`, {
    ...options,
    statusCode: status,
    reason,
    isRetryable: quota ? false : undefined,
    retryAfterMs: parseRetryAfter(sdkError.headers),
    code,
    rejectedParameter,
  });
}

/** A 200 whose body is not a chat completion (an HTML page, an empty body): a gateway answered, not the API. */
export function notACompletion(body: unknown, context: OpenAIErrorContext): ProviderError {
  const shown =
    typeof body === "string"
      ? `text starting ${JSON.stringify(redactedExcerpt(body, secretsOf(context), 60))}`
      : typeof body;
  return new ProviderError(
    `${context.providerId} ${context.modelId}: the API answered 200 with a body that is not a chat completion (${shown}). ` +
      "Check that baseURL points at an OpenAI-compatible API and not at a proxy's or a login page.",
    // A web page is a misconfiguration, not a passing fault: a retry gets the same page.
    { providerId: context.providerId, modelId: context.modelId, reason: "server", isRetryable: !isHTML(body) },
  );
}

/** Whether a body is a web page (markup), not what an API sends. */
function isHTML(body: unknown): boolean {
  return typeof body === "string" && /^\s*</.test(body);
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
    `${context.providerId} ${context.modelId}: ${url} answered 404 with ${shown}, not an API error: the URL or path is wrong, not the model. ` +
      "Check baseURL: an OpenAI-compatible API's usually ends in /v1 (e.g. http://localhost:8000/v1).",
    { ...options, statusCode: 404, reason: "not-found", isRetryable: false },
  );
}

function mapUnreadableResponse(error: unknown, context: OpenAIErrorContext): unknown {
  // A ProviderError raised under the SDK (Azure's Entra ID token provider) comes back inside the SDK's own error.
  const inner = (error as { cause?: unknown } | null)?.cause;
  if (ProviderError.isInstance(inner)) return inner;
  // A SyntaxError quotes the body it could not parse: the cause must not carry a key either.
  redactSecrets(error, secretsOf(context));
  const options = { providerId: context.providerId, modelId: context.modelId, cause: error };
  const where = `${context.providerId} ${context.modelId}`;
  if (error instanceof SyntaxError) {
    // An HTML page (a proxy's, a login page) where JSON belongs: a retry gets the same page.
    const page = /^Unexpected token '<'/.test(error.message);
    return new ProviderError(
      `${where}: the API sent a body that is not valid JSON (${redactedExcerpt(error.message, secretsOf(context), maxServerTextLength)}).` +
        (page
          ? " It is an HTML page: check that baseURL points at an OpenAI-compatible API and not at a proxy's or a login page."
          : ""),
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
  return error;
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

function isSDKError(error: unknown): boolean {
  const name = (error as { constructor?: { name?: string } } | null)?.constructor?.name ?? "";
  return (
    name.endsWith("Error") && error !== null && typeof error === "object" && "status" in error && "headers" in error
  );
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

/**
 * An error a server reported in place of a reply, inside a 200 body or as a stream chunk: OpenAI's
 * envelope `{ error: { message, type, code } }` (OpenRouter sends it mid-stream, `code` a number) or
 * vLLM's `{ object: "error", message, type, code }`. The server's message is kept (its start, its
 * secrets cut out); a numeric `code` that is an HTTP status decides the reason, else it is the
 * server's failure (retryable). Anything else is not a report: undefined.
 */
export function reportedError(body: unknown, context: OpenAIErrorContext): ProviderError | undefined {
  if (body === null || typeof body !== "object" || Array.isArray(body)) return undefined;
  const fields = body as { object?: unknown; error?: unknown; message?: unknown };
  const report =
    fields.object === "error"
      ? (fields as Record<string, unknown>)
      : fields.error !== null && typeof fields.error === "object" && !Array.isArray(fields.error)
        ? (fields.error as Record<string, unknown>)
        : typeof fields.error === "string"
          ? { message: fields.error }
          : undefined;
  if (!report) return undefined;
  const status = statusOf(report.code);
  const code =
    typeof report.code === "string" ? report.code : typeof report.type === "string" ? report.type : undefined;
  const said =
    typeof report.message === "string" && report.message !== ""
      ? redactedExcerpt(report.message, secretsOf(context), maxServerTextLength)
      : "an error without a message";
  return new ProviderError(`${context.providerId} ${context.modelId}: the server reported an error: ${said}`, {
    providerId: context.providerId,
    modelId: context.modelId,
    statusCode: status,
    reason: contentFilterCodes.has(code ?? "") ? "content-policy" : status === undefined ? "server" : undefined,
    code,
  });
}

/** A numeric error code that is an HTTP error status, as OpenRouter and vLLM send one. */
function statusOf(code: unknown): number | undefined {
  return typeof code === "number" && Number.isInteger(code) && code >= 400 && code <= 599 ? code : undefined;
}
