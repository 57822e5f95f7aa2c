import type { ProviderTool } from "../input.js";
import type { ChatModelOutput, ProviderToolCall, Repair } from "../output.js";
import { takesText } from "../schema/takes-text.js";
import { isPlainObject } from "../schema/json-schema.js";
import { TextCallHoldBack } from "../stream/text-call-hold-back.js";
import { readToolUnion } from "../tool-choice/read-tool-union.js";
import { matchToolName } from "../tool-calls/match-tool-name.js";
import { parseToolArguments } from "../tool-calls/parse-tool-arguments.js";
import { recoverTextToolCalls } from "../text-tool-calls/recover-text-tool-calls.js";
import { wholeTextToolCalls } from "../text-tool-calls/whole-text-tool-calls.js";
import type { OutputRules, PreparedCall } from "./prepared-call.js";
import { completedAtCutOff, cutOffCall, toolCallError } from "./read-tool-calls.js";

/**
 * The calls a tool-union reply holds (the reply's text is then no text of the caller's). A reply
 * that writes its calls the way the model was trained to (`<tool_call>` blocks, `<function=…>` tags,
 * an OpenAI-style envelope) is recovered as on any rung where a call is required: every call of it.
 */
export function readUnionReply(
  text: string,
  rules: OutputRules,
  repairs: Repair[],
  cutOff: boolean,
): { calls: ProviderToolCall[]; text: string } {
  const tagged = text.includes("<tool_call>") || text.includes("<function=") || text.includes("<|tool_call>");
  const recover = () => (rules.fixInvalidToolCalls ? recoverFromText(text, rules, repairs, cutOff) : undefined);
  const early = tagged ? recover() : undefined;
  if (early !== undefined) return { calls: early.calls, text: "" };
  const reading = readToolUnion(text, rules.fallbackTool);
  if (!reading.ok) {
    const recovered = tagged ? undefined : recover();
    if (recovered !== undefined) return { calls: recovered.calls, text: "" };
    throw toolCallError(rules, "tool-choice-violation", reading.problem, text);
  }
  if (completedAtCutOff(cutOff, reading.repairs)) throw cutOffCall(rules, text, "the tool call");
  for (const kind of reading.repairs) repairs.push({ kind, detail: `tool-union reply: ${kind}` });
  return { calls: reading.calls, text: "" };
}

/**
 * Tool calls written as text, when there are usable ones: the calls, and the text left (the prose
 * before a <tool_call> tag; a bare JSON call leaves none). Under "auto" only a reply that is nothing
 * but calls to this call's tools with valid arguments is read (`wholeTextCalls`); where a call is
 * required, the calls found in it.
 */
export function recoverFromText(
  text: string,
  rules: OutputRules,
  repairs: Repair[],
  cutOff: boolean,
): { calls: ProviderToolCall[]; text: string } | undefined {
  const strict = rules.choice.mode === "auto";
  const recover = (complete: boolean) =>
    strict ? wholeTextCalls(text, rules, complete) : someTextCalls(text, rules, complete);
  const usable = recover(cutOff);
  // A call the token limit cut off is not completed by guessing: re-asked, with the limit named.
  if (usable === undefined && cutOff && recover(false) !== undefined) throw cutOffCall(rules, text, "the tool call");
  if (usable === undefined) return undefined;
  repairs.push({ kind: "text-tool-call", detail: `recovered ${usable.calls.length} tool call(s) written as text` });
  return usable;
}

/** The calls of a reply that is nothing but calls, each to a tool of the call (named uniquely) with valid arguments. */
function wholeTextCalls(text: string, rules: OutputRules, complete: boolean) {
  const read = wholeTextToolCalls(text, wantsTextOf(rules), complete);
  if (read === undefined || !read.calls.every((call) => argumentsAreValid(call, rules, true))) return undefined;
  return { calls: read.calls, text: read.lead };
}

/** The usable calls found in a reply (prose before a `<tool_call>` tag stays its text). */
function someTextCalls(text: string, rules: OutputRules, complete: boolean) {
  const calls = recoverTextToolCalls(
    text,
    (name) => matchToolName(name, rules.validators.keys()) !== undefined,
    wantsTextOf(rules),
    complete,
  ).filter((call) => argumentsAreValid(call, rules, false));
  if (calls.length === 0) return undefined;
  const tag = text.search(/<\|?tool_call>|\[TOOL_CALLS\]/);
  return { calls, text: tag === -1 ? "" : text.slice(0, tag).trim() };
}

function wantsTextOf(rules: OutputRules): (name: string, parameter: string) => boolean {
  return (name, parameter) => takesText(rules.validators.get(name)?.tool.parameters, parameter);
}

/**
 * For a reply that failed its schema: when it reads as a call to a tool of this call written as
 * text, an issue for the model's re-ask and advice for the caller that names the option. Else undefined.
 */
export function textCallHint(text: string, rules: OutputRules): { issue: string; advice: string } | undefined {
  const known = (name: string) =>
    name !== rules.structureTool && matchToolName(name, rules.validators.keys()) !== undefined;
  const read =
    wholeTextToolCalls(text, wantsTextOf(rules), false)?.calls ?? recoverTextToolCalls(text, known, wantsTextOf(rules));
  const calls = read.filter((call) => known(call.name));
  if (calls.length === 0) return undefined;
  const names = [...new Set(calls.map((call) => `'${call.name}'`))].join(", ");
  const mismatch = calls.map((call) => argumentsProblem(call, rules)).find((problem) => problem !== undefined);
  const issue = `the reply is a call to ${names} written as text${mismatch ? ` (${mismatch})` : ""}: call tools through the tool-calling interface, or reply with the JSON answer alone`;
  const why = !rules.fixInvalidToolCalls
    ? "fixInvalidToolCalls is false, which turns that reading off (leave it at its default, true)"
    : rules.choice.mode === "auto" && !rules.recoverTextToolCallsOnAuto
      ? "recoverTextToolCallsOnAuto is false (leave it at its default, true, to read such a reply as the call)"
      : "recoverTextToolCallsOnAuto reads a reply as tool calls only when it is nothing but calls to this call's tools with arguments that match their schemas";
  return {
    issue,
    advice: `\nThe reply reads as a tool call written as text; it was read as the answer because ${why}.`,
  };
}

/** What is wrong with a call's arguments (unparsable, or not matching the tool's schema), if anything. */
function argumentsProblem(call: ProviderToolCall, rules: OutputRules): string | undefined {
  const match = matchToolName(call.name, rules.validators.keys());
  if (match === undefined || !("name" in match)) return undefined;
  const parsed = parseToolArguments(call.args);
  if (!parsed.ok) return `its arguments: ${parsed.problem}`;
  const result = rules.validators.get(match.name)!.validate(parsed.args);
  return result.success
    ? undefined
    : `its arguments do not match the schema of '${match.name}': ${result.issues.join("; ")}`;
}

/** A stream's hold-back of text that may be tool calls written as text, where such calls are recovered (not on the tool-union rungs, which hold back all text). */
export function textCallHoldBack(call: PreparedCall): TextCallHoldBack | undefined {
  const { rules } = call;
  if (
    rules.validators.size === 0 ||
    rules.plan.readsUnion ||
    rules.structureTool !== undefined ||
    !shouldRecover(rules)
  )
    return undefined;
  return new TextCallHoldBack((name) => matchToolName(name, rules.validators.keys()) !== undefined);
}

/** Whether an output's tool calls were read from its text. */
export function readFromText(output: ChatModelOutput): boolean {
  return output.meta.repairs.some((repair) => repair.kind === "text-tool-call");
}

export function shouldRecover(rules: OutputRules): boolean {
  if (!rules.fixInvalidToolCalls) return false;
  const mode = rules.choice.mode;
  return mode === "required" || mode === "single" || (mode === "auto" && rules.recoverTextToolCallsOnAuto);
}

/**
 * A call to a name that could be two tools is kept where a call is required: finalizing it re-asks
 * with the candidates named, never guessing. `strict` (under "auto"): the name means one tool, and
 * the arguments name only its declared properties — a tool's definition (`{"name", "parameters":
 * {"type", "properties"}}`) is no call to a tool whose arguments are all optional.
 */
function argumentsAreValid(call: ProviderToolCall, rules: OutputRules, strict: boolean): boolean {
  const match = matchToolName(call.name, rules.validators.keys());
  if (match === undefined || !("name" in match)) return match !== undefined && !strict;
  const parsed = parseToolArguments(call.args);
  const entry = rules.validators.get(match.name)!;
  if (!parsed.ok || (strict && !declaresAll(entry.tool.parameters, parsed.args))) return false;
  return entry.validate(parsed.args).success;
}

function declaresAll(schema: ProviderTool["parameters"], args: Record<string, unknown>): boolean {
  const { properties, additionalProperties } = schema;
  if (!isPlainObject(properties) || (additionalProperties !== undefined && additionalProperties !== false)) return true;
  return Object.keys(args).every((key) => Object.prototype.hasOwnProperty.call(properties, key));
}
