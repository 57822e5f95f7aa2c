import { ProviderError } from "../../core/errors/provider-error.js";
import { maxServerTextLength, redactedExcerpt } from "../../internal/redact-secrets.js";
import {
  contentFilterCodes,
  pageHint,
  secretsOf,
  statusOf,
  whereOf,
  type OpenAIErrorContext,
} from "./openai-error-context.js";

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
  return new ProviderError(`${whereOf(context)}: the server reported an error: ${said}`, {
    providerId: context.providerId,
    modelId: context.modelId,
    statusCode: status,
    reason: contentFilterCodes.has(code ?? "") ? "content-policy" : status === undefined ? "server" : undefined,
    code,
  });
}

/** A 200 whose body is not a chat completion (an HTML page, an empty body): a gateway answered, not the API. */
export function notACompletion(body: unknown, context: OpenAIErrorContext): ProviderError {
  const shown =
    typeof body === "string"
      ? `text starting ${JSON.stringify(redactedExcerpt(body, secretsOf(context), 60))}`
      : typeof body;
  return new ProviderError(
    `${whereOf(context)}: the API answered 200 with a body that is not a chat completion (${shown}). ${pageHint}`,
    // A web page is a misconfiguration, not a passing fault: a retry gets the same page.
    { providerId: context.providerId, modelId: context.modelId, reason: "server", isRetryable: !isHTML(body) },
  );
}

/** Whether a body is a web page (markup), not what an API sends. */
function isHTML(body: unknown): boolean {
  return typeof body === "string" && /^\s*</.test(body);
}
