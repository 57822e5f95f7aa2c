import type OpenAI from "openai";
import type { APIError } from "openai";
import type { ProviderErrorOptions, RejectedParameter } from "../../core/errors/provider-error.js";
import { ProviderError, reasonFromStatus } from "../../core/errors/provider-error.js";
import type { ProviderToolChoice } from "../../core/input.js";
import type { ParameterName } from "../../core/parameters/parameter-name.js";
import { parseRetryAfter } from "../../core/retry/parse-retry-after.js";
import { transportRefusal } from "../../core/transport/transport-refusal.js";
import { abortError } from "../../internal/abort.js";
import { fetchGaveUp, fetchGaveUpAdvice } from "../../internal/fetch-gave-up.js";
import { networkCause } from "../../internal/network-cause.js";
import { maxServerTextLength, redactedExcerpt, redactSecrets } from "../../internal/redact-secrets.js";
import {
  contentFilterCodes,
  pageHint,
  secretsOf,
  statusOf,
  whereOf,
  type OpenAIErrorContext,
  type SentRequest,
} from "./openai-error-context.js";

// The OpenAI error module: what an error body looks like, and the one mapper from whatever the SDK
// (or a server in place of a reply) raised to a ProviderError. Its context is openai-error-context.ts.

/**
 * An error report as OpenAI shapes it, `{ error: { message, type, param, code } }`. Compatible servers
 * differ: `code` may be a number (an HTTP status: OpenRouter, vLLM), the fields may sit at the top level
 * (Cerebras; vLLM with `object: "error"`), or `error` may be the message itself.
 */
export interface OpenAIErrorBody {
  error: OpenAIErrorReport;
}

/** The fields of one error report, every one of them loose. */
export interface OpenAIErrorReport {
  message?: unknown;
  type?: unknown;
  param?: unknown;
  code?: unknown;
}

function isObject(value: unknown): value is Record<string, unknown> {
  return value !== null && typeof value === "object" && !Array.isArray(value);
}

/**
 * An HTTP error body in OpenAI's envelope: one with its fields at the top level (Cerebras), where the
 * SDK would find no message and report "400 status code (no body)", goes into it. Any other body is left as it came.
 */
export function envelopeErrorBody(body: unknown): unknown {
  if (!isObject(body) || "error" in body) return body;
  return typeof body.message === "string" ? ({ error: body } satisfies OpenAIErrorBody) : body;
}

/** The report inside a body a server sent in place of a reply (a 200 or a stream chunk), or undefined. */
function reportIn(body: unknown): OpenAIErrorReport | undefined {
  if (!isObject(body)) return undefined;
  if (body.object === "error") return body;
  if (isObject(body.error)) return body.error;
  return typeof body.error === "string" ? { message: body.error } : undefined;
}

/** Whether a response body is the provider's JSON error (`{ message, type?, code? }`), not a page or a text. */
function isAPIErrorBody(body: unknown): boolean {
  return isObject(body) && typeof body.message === "string";
}

const enveloping = new WeakMap<typeof OpenAI, typeof OpenAI>();

/** The SDK's client class, reading error bodies through `envelopeErrorBody` (one subclass per SDK copy). */
export function withEnvelopedErrors(Client: typeof OpenAI): typeof OpenAI {
  let Enveloping = enveloping.get(Client);
  if (!Enveloping) {
    Enveloping = class extends Client {
      protected override makeStatusError(status: number, error: object, message: string | undefined, headers: Headers) {
        return super.makeStatusError(status, envelopeErrorBody(error) as object, message, headers);
      }
    };
    enveloping.set(Client, Enveloping);
  }
  return Enveloping;
}

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

/**
 * An error a server reported in place of a reply, inside a 200 body or as a stream chunk: OpenAI's
 * envelope (OpenRouter sends it mid-stream, `code` a number) or vLLM's `{ object: "error", … }`. The
 * server's message is kept (its start, its secrets cut out); a numeric `code` that is an HTTP status
 * decides the reason, else it is the server's failure (retryable). Anything else is not a report: undefined.
 */
export function reportedError(body: unknown, context: OpenAIErrorContext): ProviderError | undefined {
  const report = reportIn(body);
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

const refusalWords = /unsupported|not supported|does not support|unknown|unrecognized|not allowed|not permitted/i;

/** The body fields of the common parameters (chat completions and Responses), in keelson's terms. maxTokens is not learned. */
const parameterFields: Readonly<Record<string, ParameterName>> = {
  temperature: "temperature",
  top_p: "topP",
  seed: "seed",
  stop: "stop",
  frequency_penalty: "frequencyPenalty",
  presence_penalty: "presencePenalty",
  reasoning_effort: "reasoningEffort",
  "reasoning.effort": "reasoningEffort",
};

/**
 * The part of the request a 400 (or 422) refused, named for core to learn from: the JSON-schema
 * response format, `parallel_tool_calls` (OpenAI's o1 and o3-mini refuse it), the reasoning sent
 * back (Groq and Cerebras refuse `reasoning_content`), or a common parameter (a reasoning model's
 * `temperature`). Only what the body carried counts; the server names it in `param` or in its message.
 * DeepSeek's and Kimi's 400s that ask for reasoning ("must be passed back", "is missing") are not refusals.
 */
function refusedRequestPart(error: APIError, sent: SentRequest | undefined): RejectedParameter | undefined {
  if (sent === undefined || (error.status !== 400 && error.status !== 422)) return undefined;
  const body = sent.body as Record<string, unknown>;
  const param = typeof error.param === "string" ? error.param : undefined;
  const message = typeof error.message === "string" ? error.message : "";
  const names = (field: string) =>
    param === field || (new RegExp(`\\b${field.replace(".", "\\.")}\\b`).test(message) && refusalWords.test(message));

  if (sendsSchemaFormat(body) && refusesResponseFormat(param, message))
    return { name: "response_format", value: "json-schema" };
  if ("parallel_tool_calls" in body && names("parallel_tool_calls")) return { name: "parallel_tool_calls" };
  const field = sent.reasoningField;
  if (field !== undefined && carriesReasoning(body, field) && names(field) && refusalWords.test(message))
    return { name: "reasoning" };
  for (const [wire, name] of Object.entries(parameterFields)) {
    if (hasField(body, wire) && names(wire)) return { name: "parameter", value: name };
  }
  return undefined;
}

/** A JSON-schema response format in the body: chat completions' `response_format`, or Responses' `text.format`. */
function sendsSchemaFormat(body: Record<string, unknown>): boolean {
  const format = (body.response_format ?? (body.text as { format?: unknown } | undefined)?.format) as
    { type?: unknown } | undefined;
  return format?.type === "json_schema";
}

function refusesResponseFormat(param: string | undefined, message: string): boolean {
  if (param !== undefined && /^(response_format|text\.format)\b/.test(param)) return true;
  return (
    /response_format|json_schema|structured output/i.test(message) &&
    /unsupported|not supported|does not support|not available|invalid|unknown/i.test(message)
  );
}

function carriesReasoning(body: Record<string, unknown>, field: string): boolean {
  const messages = body.messages;
  return (
    Array.isArray(messages) &&
    messages.some((message) => message !== null && typeof message === "object" && field in message)
  );
}

/** Whether the body has a field, given as a path (`reasoning.effort`). */
function hasField(body: Record<string, unknown>, path: string): boolean {
  let value: unknown = body;
  for (const key of path.split(".")) {
    if (value === null || typeof value !== "object" || !(key in value)) return false;
    value = (value as Record<string, unknown>)[key];
  }
  return value !== undefined;
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
