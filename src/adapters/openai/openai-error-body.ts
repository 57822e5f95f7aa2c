import type OpenAI from "openai";
import { ProviderError } from "../../core/errors/provider-error.js";
import { redactedExcerpt, maxServerTextLength } from "../../internal/redact-secrets.js";
import {
  contentFilterCodes,
  pageHint,
  secretsOf,
  statusOf,
  whereOf,
  type OpenAIErrorContext,
} from "./openai-error-context.js";

// What an OpenAI error body looks like, how the SDK is made to read the compatible servers' bodies, and
// the errors a server reports in place of a reply. The mapper of the SDK's errors is openai-error.ts.

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
export function isAPIErrorBody(body: unknown): boolean {
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
