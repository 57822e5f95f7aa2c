import { ChatModelError } from "../../core/errors/chat-model-error.js";
import { ProviderError } from "../../core/errors/provider-error.js";
import type { ProviderErrorOptions } from "../../core/errors/provider-error.js";
import { isAbortError } from "../../internal/abort.js";
import { fetchGaveUp, fetchGaveUpAdvice } from "../../internal/fetch-gave-up.js";
import { maxServerTextLength, redactedExcerpt } from "../../internal/redact-secrets.js";
import { transportRefusal } from "../../core/transport/transport-refusal.js";

export interface OllamaErrorContext {
  modelId: string;
  /** The host, as shown in messages (credentials stripped). */
  host: string;
  /** How long the error response asked to wait (the SDK's error drops its headers). */
  retryAfterMs?: number | undefined;
}

const refused = new Set(["ECONNREFUSED"]);
const unreachable = new Set([
  "ECONNRESET",
  "ENOTFOUND",
  "EAI_AGAIN",
  "EHOSTUNREACH",
  "ENETUNREACH",
  "EPIPE",
  "UND_ERR_SOCKET",
]);
// undici's header and body timeouts are fetchGaveUp's, told apart before these.
const timedOut = new Set(["ETIMEDOUT", "UND_ERR_CONNECT_TIMEOUT"]);
const pageHint =
  "Check that host points at the Ollama server itself (default http://127.0.0.1:11434) and not at a proxy's or a login page.";
const truncatedStream = "Did not receive done or success response in stream.";

/**
 * What the `ollama` SDK (or the fetch under it) threw → the error keelson raises. The SDK's
 * `ResponseError` (not exported, so known by name and `status_code`) keeps its status; a refused
 * connection means the server is not running; the error lines Ollama writes into a stream after
 * its 200 arrive as plain `Error`s and are server failures. Aborts and anything else pass through.
 */
export function mapOllamaError(error: unknown, context: OllamaErrorContext): unknown {
  if (isAbortError(error) || ChatModelError.isInstance(error) || !(error instanceof Error)) return error;
  const refusal = transportRefusal(error, {
    providerId: "ollama",
    modelId: context.modelId,
    where: `Ollama ${context.modelId} at ${context.host}`,
    pageHint: pageHint,
    secrets: [],
  });
  if (refusal) return refusal;
  const base: ProviderErrorOptions = {
    providerId: "ollama",
    modelId: context.modelId,
    cause: error,
    retryAfterMs: context.retryAfterMs,
  };
  const status = (error as { status_code?: unknown }).status_code;
  if (error.name === "ResponseError" && typeof status === "number")
    return responseError(excerpt(error.message), status, base, context);

  const gaveUp = fetchGaveUp(error);
  if (gaveUp) {
    return new ProviderError(
      `Ollama at ${context.host} (${context.modelId}): ${fetchGaveUpAdvice(gaveUp.waitingFor)}`,
      {
        ...base,
        reason: "timeout",
        code: gaveUp.code,
        isRetryable: false,
      },
    );
  }
  const code = networkCode(error);
  if (code !== undefined || (error instanceof TypeError && error.message === "fetch failed")) {
    if (code !== undefined && refused.has(code)) {
      return new ProviderError(
        `Ollama is not running at ${context.host} (connection refused). Start it with \`ollama serve\`, ` +
          "or point the host option / OLLAMA_HOST at a running server.",
        { ...base, reason: "network", code },
      );
    }
    const reason = code !== undefined && timedOut.has(code) ? "timeout" : "network";
    return new ProviderError(
      `Could not reach Ollama at ${context.host}${code ? ` (${code})` : ""}: ${error.message}.`,
      {
        ...base,
        reason,
        code,
      },
    );
  }
  if (error.message === truncatedStream) {
    return new ProviderError(`The stream from Ollama at ${context.host} ended before its final chunk.`, {
      ...base,
      reason: "network",
    });
  }
  if (error instanceof SyntaxError && /^Unexpected token '<'/.test(error.message)) {
    // A web page where Ollama's JSON belongs: a proxy's, a login page. A retry gets the same page.
    return new ProviderError(
      `Ollama ${context.modelId} at ${context.host}: the server answered with an HTML page, not Ollama's JSON (${error.message}). ` +
        pageHint,
      { ...base, reason: "server", isRetryable: false },
    );
  }
  if (error.constructor === Error || error instanceof SyntaxError) {
    // An error line inside a 200 stream, a missing body, or a body that is not JSON.
    return serverError(excerpt(error.message), undefined, base, context);
  }
  return error;
}

/** What the server said, as much as a message holds (the error was redacted before it came here). */
function excerpt(message: string): string {
  return redactedExcerpt(message, [], maxServerTextLength);
}

function responseError(
  message: string,
  status: number,
  base: ProviderErrorOptions,
  context: OllamaErrorContext,
): ProviderError {
  const { modelId, host } = context;
  if (status === 404 && /model/i.test(message)) {
    return new ProviderError(
      `Ollama at ${host} has no model '${modelId}' (${message}). Run \`ollama pull ${modelId}\` and try again.`,
      { ...base, statusCode: status, code: "model_not_found" },
    );
  }
  if (status >= 500) return serverError(message, status, base, context);
  let hint = "";
  if (/does not support tools/i.test(message)) {
    hint =
      " This model cannot take tools: construct it with supportsToolCalling: false to force calls through `format`.";
  } else if (/think value .* not supported|does not support thinking/i.test(message)) {
    hint = " Use providerOptions: { think: true } (or false) instead of a reasoning level for this model.";
  }
  return new ProviderError(`Ollama ${modelId} at ${host} answered ${status}: ${message}.${hint}`, {
    ...base,
    statusCode: status,
  });
}

/**
 * A 500 "error parsing tool call" is the server failing to parse what the model sampled, not a
 * fault in the request: a second sample usually parses, so it stays retryable (bounded by the
 * call's transport retries). Forced calls never meet it: they are sent as `format`, without tools.
 */
function serverError(
  message: string,
  status: number | undefined,
  base: ProviderErrorOptions,
  context: OllamaErrorContext,
): ProviderError {
  const toolCallParse = /error parsing tool call/i.test(message);
  const hint = toolCallParse
    ? " The model wrote a tool call Ollama could not parse; toolChoice 'required' or a single tool avoids this (the call is then grammar-constrained)."
    : "";
  return new ProviderError(
    `Ollama ${context.modelId} at ${context.host} failed${status ? ` with ${status}` : ""}: ${message}.${hint}`,
    {
      ...base,
      statusCode: status,
      reason: "server",
      isRetryable: true,
      code: toolCallParse ? "tool_call_parse_error" : undefined,
    },
  );
}

/** The system error code under fetch's `TypeError` (undici nests it in `cause`, or in an AggregateError). */
function networkCode(error: unknown): string | undefined {
  const seen = new Set<unknown>();
  const queue: unknown[] = [error];
  while (queue.length > 0) {
    const current = queue.shift();
    if (current === null || typeof current !== "object" || seen.has(current)) continue;
    seen.add(current);
    const code = (current as { code?: unknown }).code;
    if (typeof code === "string" && (refused.has(code) || unreachable.has(code) || timedOut.has(code))) return code;
    const { cause, errors } = current as { cause?: unknown; errors?: unknown };
    queue.push(cause, ...(Array.isArray(errors) ? errors : []));
  }
  return undefined;
}
