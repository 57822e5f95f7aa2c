import { ChatModelError } from "../../core/errors/chat-model-error.js";
import type { ProviderErrorReason, RejectedParameter } from "../../core/errors/provider-error.js";
import { ProviderError, reasonFromStatus } from "../../core/errors/provider-error.js";
import type { ProviderInput } from "../../core/input.js";
import { parseRetryAfter } from "../../core/retry/parse-retry-after.js";
import { transportRefusal } from "../../core/transport/transport-refusal.js";
import { isAbortError } from "../../internal/abort.js";
import { fetchGaveUp, fetchGaveUpAdvice } from "../../internal/fetch-gave-up.js";
import { networkCause } from "../../internal/network-cause.js";
import { redactSecrets, redactText } from "../../internal/redact-secrets.js";

export interface GoogleErrorContext {
  modelId: string;
  /** The API key, kept out of every message. */
  secrets: readonly string[];
  /** The request's input, to name a refused tool_choice, response format or parameter. */
  input: ProviderInput;
  /** The error response's headers, when keelson's fetch saw them. */
  headers?: Headers | undefined;
}

/** Google's RPC status names that say more than their HTTP status. */
const reasonByStatus: Record<string, ProviderErrorReason> = {
  RESOURCE_EXHAUSTED: "rate-limit",
  UNAVAILABLE: "server",
  INTERNAL: "server",
  DEADLINE_EXCEEDED: "timeout",
  UNAUTHENTICATED: "authentication",
  PERMISSION_DENIED: "authentication",
  NOT_FOUND: "not-found",
  INVALID_ARGUMENT: "invalid-request",
  FAILED_PRECONDITION: "invalid-request",
};

const hints: Partial<Record<ProviderErrorReason, string>> = {
  authentication:
    "Check the API key (the apiKey option, GEMINI_API_KEY or GOOGLE_API_KEY) or the Vertex AI credentials.",
};

/** The body Google sends with an error: `{ error: { code, message, status, details } }`. */
interface GoogleErrorBody {
  code?: number;
  message?: string;
  status?: string;
  details?: { "@type"?: string; retryDelay?: string }[];
}

/**
 * A `@google/genai` error as a ProviderError (the SDK error is its `cause`). The SDK's `ApiError`
 * carries the HTTP status and the response body as its message: the body's `error.status`
 * (`RESOURCE_EXHAUSTED`, `UNAVAILABLE`, …) is the `code` and decides the reason, and the wait comes
 * from `Retry-After` or the body's `RetryInfo.retryDelay`. A 400 naming `tool_config`, the response
 * schema or the thinking config is a refused feature, reported for the ladder to learn. A failed
 * connection is `network`; aborts and anything else pass through.
 */
export function mapGoogleError(error: unknown, context: GoogleErrorContext): unknown {
  if (isAbortError(error) || ChatModelError.isInstance(error) || !(error instanceof Error)) return error;
  const where = `google ${context.modelId}`;
  const refusal = transportRefusal(error, {
    providerId: "google",
    modelId: context.modelId,
    where,
    pageHint: "Check that baseURL points at Google's API and not at a proxy's or a login page.",
    secrets: context.secrets,
  });
  if (refusal) return refusal;
  redactSecrets(error, context.secrets);
  const options = { providerId: "google", modelId: context.modelId, cause: error };
  const status = (error as { status?: unknown }).status;
  if (error.name === "ApiError" && typeof status === "number") {
    const body = readErrorBody(error.message);
    const code = body?.status;
    const reason = (code === undefined ? undefined : reasonByStatus[code]) ?? reasonFromStatus(status);
    const message = redactText(body?.message ?? error.message, context.secrets);
    const rejectedParameter = status === 400 ? refusedFeature(message, context.input) : undefined;
    const hint = rejectedParameter
      ? ` The model refused ${rejectedParameter.name === "parameter" || rejectedParameter.name === "schema_keyword" ? rejectedParameter.value : rejectedParameter.name}.`
      : reason === "not-found"
        ? ` Check the model id '${context.modelId}'.`
        : hints[reason]
          ? ` ${hints[reason]}`
          : "";
    return new ProviderError(`${where}: ${message}${hint}`, {
      ...options,
      statusCode: status,
      reason,
      retryAfterMs: parseRetryAfter(context.headers) ?? retryDelay(body),
      code,
      rejectedParameter,
    });
  }
  const gaveUp = fetchGaveUp(error);
  if (gaveUp) {
    return new ProviderError(`${where}: ${fetchGaveUpAdvice(gaveUp.waitingFor)}`, {
      ...options,
      reason: "timeout",
      code: gaveUp.code,
      isRetryable: false,
    });
  }
  const cause = networkCause(error);
  if (cause || (error instanceof TypeError && (error.message === "fetch failed" || error.message === "terminated"))) {
    return new ProviderError(`${where}: could not reach the API${cause ? ` (${cause.meaning})` : ""}.`, {
      ...options,
      reason: "network",
      code: cause?.code,
    });
  }
  if (error instanceof SyntaxError || /Incomplete JSON segment|Response body is empty/.test(error.message)) {
    return new ProviderError(
      `${where}: the API sent a body that is not valid JSON (${redactText(error.message, context.secrets)}).`,
      {
        ...options,
        reason: "server",
      },
    );
  }
  return error;
}

/** The `error` object of the body the SDK put in its message (a JSON array of one, as some endpoints send). */
function readErrorBody(message: string): GoogleErrorBody | undefined {
  try {
    let parsed = JSON.parse(message) as unknown;
    if (Array.isArray(parsed)) parsed = parsed[0];
    const inner = (parsed as { error?: unknown } | null)?.error;
    if (inner === null || typeof inner !== "object") return undefined;
    const body = inner as GoogleErrorBody;
    // A non-JSON error page is wrapped by the SDK with its text as the message.
    if (typeof body.message === "string" && body.message.length > 2000)
      body.message = `${body.message.slice(0, 2000)}…`;
    return body;
  } catch {
    return undefined;
  }
}

/** `RetryInfo.retryDelay` ("26s", "1.5s") in milliseconds. */
function retryDelay(body: GoogleErrorBody | undefined): number | undefined {
  for (const detail of Array.isArray(body?.details) ? body.details : []) {
    const match = /^(\d+(?:\.\d+)?)s$/.exec(typeof detail?.retryDelay === "string" ? detail.retryDelay : "");
    if (match) return Math.round(Number(match[1]) * 1000);
  }
  return undefined;
}

/** The feature a 400 refused, in keelson's terms, when the request sent it. */
function refusedFeature(message: string, input: ProviderInput): RejectedParameter | undefined {
  // "Unknown name \"additionalProperties\" at 'tools[0].function_declarations[7].parameters…': a schema keyword.
  const unknownName = /Unknown name \\?"([^"\\]+)\\?" at '([^']*)'/.exec(message);
  if (unknownName && /parameters|schema/i.test(unknownName[2]!))
    return { name: "schema_keyword", value: unknownName[1]! };
  const choice = input.toolChoice;
  if (
    choice !== undefined &&
    choice !== "auto" &&
    /tool_?config|function_?calling_?config|allowed_?function_?names/i.test(message)
  ) {
    return { name: "tool_choice", value: typeof choice === "string" ? choice : "single" };
  }
  if (input.responseFormat?.type === "json-schema" && /response_?(json_?)?schema|response_?mime_?type/i.test(message)) {
    return { name: "response_format", value: "json-schema" };
  }
  if (
    input.parameters.reasoningEffort !== undefined &&
    /thinking/i.test(message) &&
    /not (supported|enabled)/i.test(message)
  ) {
    return { name: "parameter", value: "reasoningEffort" };
  }
  return undefined;
}
