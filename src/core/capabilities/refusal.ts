import type { ProviderError } from "../errors/provider-error.js";
import type { ProviderInput } from "../input.js";
import type { Message } from "../messages.js";
import type { ParameterName } from "../parameters/parameter-name.js";
import { usesKeyword } from "../schema/project-schema.js";
import { refusedToolChoice } from "../tool-choice/refused-tool-choice.js";
import type { ToolChoiceMode } from "../tool-choice/tool-choice-mode.js";
import type { AddedField, LearnedCapabilities } from "./learned-capabilities.js";
import { isValueError } from "./value-error.js";

/** One fact a provider's 400 taught: what it refused, of what this request sent. */
export type Refusal =
  | { kind: "tool-choice"; value: ToolChoiceMode }
  | { kind: "structured-output" }
  | { kind: "parameter"; name: ParameterName }
  | { kind: "field"; name: AddedField }
  | { kind: "schema-keyword"; keyword: string };

/**
 * The fact a provider's error teaches, when there is one: the adapter named the refused part of
 * the request (`rejectedParameter`) and this request really carried it, put there by keelson (a
 * refusal of what the request never sent, or of what the caller set in `providerOptions`, teaches
 * nothing and stays the caller's error). Only a refusal of a *feature* teaches: a 400 about a
 * parameter's or field's *value* (out of range, wrong type, malformed: value-error.ts) is the
 * caller's error, learned from by no one. A tool_choice value is itself the feature refused.
 */
export function refusalOf(error: ProviderError, sent: ProviderInput): Refusal | undefined {
  const rejected = error.rejectedParameter;
  if (rejected === undefined) return undefined;
  if (rejected.name !== "tool_choice" && isValueError(error)) return undefined;
  switch (rejected.name) {
    case "tool_choice": {
      const value = refusedToolChoice(error, sent.toolChoice);
      return value ? { kind: "tool-choice", value } : undefined;
    }
    case "response_format":
      return sent.responseFormat ? { kind: "structured-output" } : undefined;
    case "parameter": {
      // maxTokens is a cap the caller relies on: dropping it would change what a reply may cost.
      const name = rejected.value;
      return name !== "maxTokens" && sent.parameters[name] !== undefined ? { kind: "parameter", name } : undefined;
    }
    case "parallel_tool_calls":
      return sent.parallelToolCalls !== undefined && !callerSets(sent, "parallel_tool_calls")
        ? { kind: "field", name: "parallel_tool_calls" }
        : undefined;
    case "reasoning":
      return sent.messages.some(carriesReasoning) ? { kind: "field", name: "reasoning" } : undefined;
    case "schema_keyword":
      return sendsKeyword(sent, rejected.value) ? { kind: "schema-keyword", keyword: rejected.value } : undefined;
  }
}

/** Whether the request's tool or response-format schemas use the keyword (a refusal of what it never sent teaches nothing). */
function sendsKeyword(sent: ProviderInput, keyword: string): boolean {
  if (typeof keyword !== "string" || keyword === "") return false;
  const format = sent.responseFormat;
  return (
    (sent.tools ?? []).some((tool) => usesKeyword(tool.parameters, keyword)) ||
    (format?.type === "json-schema" && usesKeyword(format.schema, keyword))
  );
}

function callerSets(sent: ProviderInput, field: string): boolean {
  return sent.providerOptions !== undefined && field in sent.providerOptions;
}

function carriesReasoning(message: Message): boolean {
  return (
    message.role === "assistant" &&
    typeof message.content !== "string" &&
    message.content.some((part) => part.type === "reasoning")
  );
}

/** The refusal's name among a call's facts (a call learns each at most once) and in the process's announcements. */
export function refusalKey(refusal: Refusal): string {
  return refusal.kind === "tool-choice"
    ? `tool_choice:${refusal.value}`
    : refusal.kind === "structured-output"
      ? "response_format:json-schema"
      : refusal.kind === "schema-keyword"
        ? `schema-keyword:${refusal.keyword}`
        : `${refusal.kind}:${refusal.name}`;
}

/** Records a refusal; true when it is news (a call in flight may have learned it already). */
export function recordRefusal(learned: LearnedCapabilities, refusal: Refusal): boolean {
  switch (refusal.kind) {
    case "tool-choice":
      return addNew(learned.toolChoice, refusal.value);
    case "structured-output":
      if (learned.structuredOutput) return false;
      learned.structuredOutput = true;
      return true;
    case "parameter":
      return addNew(learned.parameters, refusal.name);
    case "field":
      return addNew(learned.fields, refusal.name);
    case "schema-keyword":
      return addNew(learned.schemaKeywords, refusal.keyword);
  }
}

function addNew<T>(set: Set<T>, value: T): boolean {
  if (set.has(value)) return false;
  set.add(value);
  return true;
}

/**
 * A request without the fields keelson adds that the endpoint refused: no `parallelToolCalls`, no
 * reasoning carried back in assistant turns. The input is the call's own (made per attempt), the
 * caller's messages copied, never changed.
 */
export function withoutRefusedFields(input: ProviderInput, learned: LearnedCapabilities): ProviderInput {
  if (learned.fields.size === 0) return input;
  if (learned.fields.has("parallel_tool_calls") && !callerSets(input, "parallel_tool_calls"))
    delete input.parallelToolCalls;
  if (learned.fields.has("reasoning") && input.messages.some(carriesReasoning))
    input.messages = input.messages.map(withoutReasoning);
  return input;
}

function withoutReasoning(message: Message): Message {
  if (!carriesReasoning(message) || message.role !== "assistant" || typeof message.content === "string") return message;
  return { ...message, content: message.content.filter((part) => part.type !== "reasoning") };
}

/** What the `warning` event says once a refusal was learned: what, for which model, and the option that sets it up front. */
export function learnedMessage(
  where: string,
  refusal: Refusal,
  error: ProviderError,
  support: { toolChoiceSupport: ReadonlySet<ToolChoiceMode> },
): string {
  const said = `${where} refused ${refusedPart(refusal)} (${error.message}). keelson learned it for this endpoint and model, for the whole process, and sent the call again`;
  switch (refusal.kind) {
    case "tool-choice":
      return (
        `${said} on the next rung. To skip the refused request, construct the model with ` +
        `toolChoiceSupport: new Set(${JSON.stringify([...support.toolChoiceSupport])}).`
      );
    case "structured-output":
      return `${said} without it (the next rung). To skip the refused request, construct the model with supportsStructuredOutput: false.`;
    case "parameter":
      return `${said} without parameters.${refusal.name}. To skip the refused request, construct the model with unsupportedParameters: ["${refusal.name}"] (or leave the parameter out).`;
    case "field":
      return refusal.name === "parallel_tool_calls"
        ? `${said} without parallel_tool_calls. There is no option to set up front; the process sends it no more.`
        : `${said} without the reasoning of earlier tool-call turns. To skip the refused request, construct the model with reasoningContent: false.`;
    case "schema-keyword":
      return `${said} with '${refusal.keyword}' left out of the schemas it sends (arguments are still validated against the whole schema). There is no option to set up front; the process sends it no more.`;
  }
}

function refusedPart(refusal: Refusal): string {
  switch (refusal.kind) {
    case "tool-choice":
      return `tool_choice '${refusal.value}'`;
    case "structured-output":
      return "the JSON-schema response format";
    case "parameter":
      return `parameters.${refusal.name}`;
    case "field":
      return refusal.name === "parallel_tool_calls" ? "parallel_tool_calls" : "the reasoning sent back";
    case "schema-keyword":
      return `the schema keyword '${refusal.keyword}'`;
  }
}
