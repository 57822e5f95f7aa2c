import type { APIError } from "openai";
import type { RejectedParameter } from "../../core/errors/provider-error.js";
import type { ProviderToolChoice } from "../../core/input.js";
import type { ParameterName } from "../../core/parameters/parameter-name.js";
import type { SentRequest } from "./openai-error-context.js";

// The part of a request a 400 (or 422) refused, named for core to learn from (the tool_choice ladder,
// the response_format fallback, the parameters a model does not take).

/** A 400 (or 422) that names tool_choice as the refused parameter or says its value is unsupported. */
export function rejectedToolChoice(
  error: APIError,
  sent: ProviderToolChoice | undefined,
): RejectedParameter | undefined {
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
export function refusedRequestPart(error: APIError, sent: SentRequest | undefined): RejectedParameter | undefined {
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
