import { generateToolCallId } from "../../internal/generate-id.js";
import { EmptyResponseError } from "../errors/empty-response-error.js";
import { StructuredOutputError } from "../errors/structured-output-error.js";
import type { AssistantContentPart, ToolCall } from "../messages.js";
import { messageText, messageToolCalls } from "../messages.js";
import type { ToolCallError } from "../errors/tool-call-error.js";
import type { ProviderTool } from "../input.js";
import type { ChatModelOutput, ProviderOutput, ProviderToolCall, Repair, RepairKind } from "../output.js";
import { normalizeUsage } from "../usage.js";
import { readToolUnion } from "../tool-choice/read-tool-union.js";
import { dropNullOptionals } from "../tool-choice/strict-schema.js";
import { unionWrapKey } from "../tool-choice/tool-union-schema.js";
import { isPlainObject } from "../schema/json-schema.js";
import { parseJSONValue } from "../tool-calls/parse-json-value.js";
import { parseToolArguments, preview } from "../tool-calls/parse-tool-arguments.js";
import { recoverTextToolCalls } from "../tool-calls/recover-text-tool-calls.js";
import { takesText } from "../schema/takes-text.js";
import type { OutputRules } from "./output-rules.js";
import { checkToolChoice } from "./check-tool-choice.js";
import { toolCallError } from "./tool-call-error-for.js";
import { recordToolCallInput } from "./tool-call-input.js";

/** The caller's output but for `meta`, which the attempt loop adds to this same object. */
export type FinalOutput = Omit<ChatModelOutput, "meta"> & { meta: ChatModelOutput["meta"] | undefined };

/**
 * Turns what an adapter returned into the caller's output: tool calls read back from a tool union,
 * recovered from text, given ids, repaired, validated against their schemas and against tool_choice;
 * structured output parsed and validated. Throws ToolCallError, StructuredOutputError or
 * EmptyResponseError for the repair loop to re-ask. What was repaired on the way goes into `repairs`.
 */
export function finalizeOutput(raw: ProviderOutput, rules: OutputRules, repairs: Repair[]): FinalOutput {
  let text = raw.text ?? (raw.message ? messageText(raw.message) : "");
  const reasoning = raw.reasoning ?? "";
  let rawCalls: ProviderToolCall[] = raw.toolCalls ?? (raw.message ? messageToolCalls(raw.message) : []);

  // Empty is empty whatever was asked for: an empty reply to a forced call or a schema is no sign
  // that tool_choice was ignored or the format missed. A filtered reply is returned as it is only
  // where an answer without a call or an object is one (`auto`); elsewhere the caller gets the error.
  if (text === "" && rawCalls.length === 0 && rules.retryOnEmptyResponse && (raw.finishReason !== "content-filter" || demandsAnswer(rules))) {
    throw emptyResponse(raw, reasoning, rules);
  }
  // A reply the provider cut off at the token limit: JSON it left open is not completed by guessing.
  const cutOff = raw.finishReason === "length";

  if (rawCalls.length === 0 && (rules.plan.readsUnion || (text !== "" && shouldRecover(rules)))) {
    const read = rules.plan.readsUnion ? readUnionReply(text, rules, repairs, cutOff) : recoverFromText(text, rules, repairs, cutOff);
    if (read !== undefined) ({ calls: rawCalls, text } = read);
  }

  // map, not push: an array grown from [] by push is made room for 17 items.
  let toolCalls = rawCalls.map((call) => finalizeToolCall(call, rules, repairs, cutOff));
  toolCalls = checkToolChoice(toolCalls, text, rules, repairs);

  let object: unknown;
  if (rules.structureTool !== undefined) {
    object = toolCalls[0]?.args;
    text = JSON.stringify(object);
    toolCalls = [];
  } else if (rules.structure && toolCalls.length === 0) {
    object = parseStructure(text, rules, repairs, cutOff);
    // The wire's `{ item }` is no text of the caller's: the text is the object's JSON.
    if (rules.structure.wrapped) text = JSON.stringify(object);
  }

  // A forced call read from text ends "stop" on the wire; to the caller it is a tool call.
  const reported = raw.finishReason ?? "stop";
  // A structured answer carried by a forced tool is no tool call to the caller: it ends "stop".
  const finishReason =
    toolCalls.length > 0 && reported === "stop" ? "tool-calls" : rules.structureTool !== undefined && reported === "tool-calls" ? "stop" : reported;
  const message: ChatModelOutput["message"] = { role: "assistant", content: messageContent(text, reasoning, raw.reasoningSignature, toolCalls) };
  // `meta` is the attempt loop's to fill; its slot is made here, so filling it adds no property.
  const final: FinalOutput = { message, text, toolCalls, reasoning, finishReason, usage: normalizeUsage(raw.usage), raw: raw.raw, meta: undefined };
  if (object !== undefined) final.object = object;
  return final;
}

/**
 * The calls a tool-union reply holds (the reply's text is then no text of the caller's). A reply
 * that writes its calls the way the model was trained to (`<tool_call>` blocks, `<function=…>` tags,
 * an OpenAI-style envelope) is recovered as on any rung where a call is required: every call of it.
 */
function readUnionReply(text: string, rules: OutputRules, repairs: Repair[], cutOff: boolean): { calls: ProviderToolCall[]; text: string } {
  const tagged = text.includes("<tool_call>") || text.includes("<function=");
  const recover = () => (rules.fixInvalidToolCalls ? recoverFromText(text, rules, repairs, cutOff) : undefined);
  const early = tagged ? recover() : undefined;
  if (early !== undefined) return { calls: early.calls, text: "" };
  const reading = readToolUnion(text, rules.fallbackTool);
  if (!reading.ok) {
    const recovered = tagged ? undefined : recover();
    if (recovered !== undefined) return { calls: recovered.calls, text: "" };
    throw toolCallError(rules, "tool-choice-violation", reading.problem, text);
  }
  if (cutOff && reading.repairs.includes("json-repaired")) throw cutOffCall(rules, text, "the tool call");
  for (const kind of reading.repairs) repairs.push({ kind, detail: `tool-union reply: ${kind}` });
  return { calls: reading.calls, text: "" };
}

/** Tool calls written as text, when there are usable ones: the calls, and the prose before a <tool_call> tag (a bare JSON call leaves none). */
function recoverFromText(text: string, rules: OutputRules, repairs: Repair[], cutOff: boolean): { calls: ProviderToolCall[]; text: string } | undefined {
  const recover = (complete: boolean) =>
    recoverTextToolCalls(
      text,
      (name) => rules.validators.has(name),
      (name, parameter) => takesText(rules.validators.get(name)?.tool.parameters, parameter),
      complete,
    ).filter((call) => argumentsAreValid(call, rules));
  const usable = recover(cutOff);
  // A call the token limit cut off is not completed by guessing: re-asked, with the limit named.
  if (usable.length === 0 && cutOff && recover(false).length > 0) throw cutOffCall(rules, text, "the tool call");
  if (usable.length === 0) return undefined;
  repairs.push({ kind: "text-tool-call", detail: `recovered ${usable.length} tool call(s) written as text` });
  const tag = text.indexOf("<tool_call>");
  return { calls: usable, text: tag === -1 ? "" : text.slice(0, tag).trim() };
}

function emptyResponse(raw: ProviderOutput, reasoning: string, rules: OutputRules): EmptyResponseError {
  return new EmptyResponseError(
    `${rules.providerId} ${rules.modelId} returned an empty response (no text and no tool call` +
      `${reasoning ? ", only reasoning" : ""}, finish reason '${raw.finishReason ?? "unknown"}').${emptyAdvice(raw, reasoning)}`,
    { providerId: rules.providerId, modelId: rules.modelId },
  );
}

function emptyAdvice(raw: ProviderOutput, reasoning: string): string {
  if (raw.finishReason === "length") {
    return reasoning
      ? " The reasoning used up the token limit: raise parameters.maxTokens or lower parameters.reasoningEffort."
      : " The reply hit the token limit: raise parameters.maxTokens.";
  }
  if (raw.finishReason === "content-filter") return " The provider's content filter stopped the reply: rephrase the input.";
  return "";
}

/** Whether the call wants more than text: a tool call it forces, or an object. */
function demandsAnswer(rules: OutputRules): boolean {
  return rules.choice.mode === "required" || rules.choice.mode === "single" || rules.structure !== undefined;
}

/** Arguments (or a tool-union reply) the token limit cut off: re-asked, and past the budget the caller is told to raise it. */
function cutOffCall(rules: OutputRules, text: string, what: string, toolName?: string): ToolCallError {
  const error = toolCallError(
    rules,
    "invalid-args",
    `the reply was cut off at the token limit in the middle of ${what}. Send the complete call again, with shorter arguments if they were long.`,
    text,
    toolName,
  );
  error.message += `\n${cutOffAdvice}`;
  return error;
}

const cutOffAdvice = "The reply hit the token limit (finish reason 'length'): raise parameters.maxTokens.";

function shouldRecover(rules: OutputRules): boolean {
  if (!rules.fixInvalidToolCalls) return false;
  const mode = rules.choice.mode;
  return mode === "required" || mode === "single" || (mode === "auto" && rules.recoverTextToolCallsOnAuto);
}

function argumentsAreValid(call: ProviderToolCall, rules: OutputRules): boolean {
  const parsed = parseToolArguments(call.args);
  return parsed.ok && rules.validators.get(call.name)!.validate(parsed.args).success;
}

/** One call made final: its tool known, its arguments parsed (repaired), validated and given an id. Failures are worded apart (the code run per call stays small). */
function finalizeToolCall(call: ProviderToolCall, rules: OutputRules, repairs: Repair[], cutOff: boolean): ToolCall {
  const entry = rules.validators.get(call.name);
  if (entry === undefined) throw unknownTool(call, rules);
  const parsed = parseToolArguments(call.args, rules.fixInvalidToolCalls);
  if (!parsed.ok) throw toolCallError(rules, "invalid-args", `tool '${call.name}': ${parsed.problem}`, String(call.args), call.name);
  if (cutOff && parsed.repairs.includes("json-repaired")) throw cutOffCall(rules, String(call.args), `the arguments of tool '${call.name}'`, call.name);
  if (parsed.repairs.length > 0) noteArgumentRepairs(call, parsed.repairs, repairs);
  const strictUnion = rules.plan.responseFormat?.type === "json-schema" && rules.plan.responseFormat.strict === true;
  const args = rules.structure?.strict || strictUnion ? (dropNullOptionals(parsed.args, entry.tool.parameters) as Record<string, unknown>) : parsed.args;
  const result = entry.validate(args);
  if (!result.success) throw argumentsMismatch(call, args, result.issues, entry.tool, rules);
  const id = call.id || missingId(call, repairs);
  const toolCall: ToolCall = { type: "tool-call", id, name: call.name, args: result.value as Record<string, unknown> };
  // A schema that made new arguments (zod's transforms) is checked on its input when the answer is read from a cache.
  if (result.value !== args) recordToolCallInput(toolCall, args);
  return toolCall;
}

function unknownTool(call: ProviderToolCall, rules: OutputRules): ToolCallError {
  // The tools this reply may call (the forced one alone, none under "none"), not every tool of the call.
  const known = rules.plan.allowedTools.map((tool) => tool.name);
  return toolCallError(
    rules,
    "unknown-tool",
    `there is no tool named ${JSON.stringify(call.name)}. ${known.length ? `Available tools: ${known.join(", ")}.` : "No tools are available for this reply."}`,
    JSON.stringify({ name: call.name, arguments: call.args }),
    call.name,
  );
}

function noteArgumentRepairs(call: ProviderToolCall, kinds: readonly RepairKind[], repairs: Repair[]): void {
  for (const kind of kinds) {
    if (kind === "empty-args" && call.args !== "" && call.args != null) continue;
    repairs.push({ kind, detail: `arguments of '${call.name}': ${kind}`, toolName: call.name });
  }
}

function argumentsMismatch(call: ProviderToolCall, args: unknown, issues: string[], tool: ProviderTool, rules: OutputRules): ToolCallError {
  return toolCallError(
    rules,
    "invalid-args",
    `the arguments of tool '${call.name}' do not match its schema: ${issues.join("; ")}. The schema is ${JSON.stringify(tool.parameters)}.`,
    JSON.stringify(args),
    call.name,
  );
}

function missingId(call: ProviderToolCall, repairs: Repair[]): string {
  const id = generateToolCallId();
  repairs.push({ kind: "missing-id", detail: `gave the call to '${call.name}' the id ${id}`, toolName: call.name });
  return id;
}

function parseStructure(text: string, rules: OutputRules, repairs: Repair[], cutOff: boolean): unknown {
  const parsed = parseJSONValue(text);
  const fail = (issues: string[], advice = "") =>
    new StructuredOutputError(
      `${rules.providerId} ${rules.modelId} did not return the structured output asked for: ${issues.join("; ")}${advice}`,
      { text, issues, providerId: rules.providerId, modelId: rules.modelId },
    );
  if (!parsed) throw fail([`the reply is not JSON: ${preview(text)}`]);
  if (cutOff && parsed.repairs.includes("json-repaired")) {
    throw fail(["the reply was cut off at the token limit before its JSON was complete; send it again, complete and shorter"], `\n${cutOffAdvice}`);
  }
  for (const kind of parsed.repairs) repairs.push({ kind, detail: `structured output: ${kind}` });
  const structure = rules.structure!;
  let value = parsed.value;
  if (structure.wrapped && isPlainObject(value) && Object.keys(value).length === 1 && unionWrapKey in value) value = value[unionWrapKey];
  if (structure.strict && structure.schema) value = dropNullOptionals(value, structure.schema);
  if (!structure.validate) return value;
  const result = structure.validate(value);
  if (!result.success) throw fail(result.issues);
  return result.value;
}

/** An assistant message's content: plain text alone, else reasoning, text and tool calls as parts. */
export function messageContent(
  text: string,
  reasoning: string,
  signature: string | undefined,
  toolCalls: ToolCall[],
): string | AssistantContentPart[] {
  if (reasoning === "" && toolCalls.length === 0) return text;
  const head: AssistantContentPart[] = [];
  if (reasoning !== "") head.push({ type: "reasoning", text: reasoning, ...(signature ? { signature } : {}) });
  if (text !== "") head.push({ type: "text", text });
  // Copied, not pushed one by one: an array grown from [] by push is made room for 17 items.
  return head.length === 0 ? toolCalls.slice() : head.concat(toolCalls);
}
