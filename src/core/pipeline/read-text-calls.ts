import type { ProviderToolCall, Repair } from "../output.js";
import { takesText } from "../schema/takes-text.js";
import { readToolUnion } from "../tool-choice/read-tool-union.js";
import { parseToolArguments } from "../tool-calls/parse-tool-arguments.js";
import { matchToolName } from "../tool-calls/match-tool-name.js";
import { recoverTextToolCalls } from "../tool-calls/recover-text-tool-calls.js";
import { completedAtCutOff, cutOffCall } from "./cut-off.js";
import type { OutputRules } from "./output-rules.js";
import { toolCallError } from "./tool-call-error-for.js";

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
  if (completedAtCutOff(cutOff, reading.repairs)) throw cutOffCall(rules, text, "the tool call");
  for (const kind of reading.repairs) repairs.push({ kind, detail: `tool-union reply: ${kind}` });
  return { calls: reading.calls, text: "" };
}

/** Tool calls written as text, when there are usable ones: the calls, and the prose before a <tool_call> tag (a bare JSON call leaves none). */
export function recoverFromText(
  text: string,
  rules: OutputRules,
  repairs: Repair[],
  cutOff: boolean,
): { calls: ProviderToolCall[]; text: string } | undefined {
  const recover = (complete: boolean) =>
    recoverTextToolCalls(
      text,
      (name) => matchToolName(name, rules.validators.keys()) !== undefined,
      (name, parameter) => takesText(rules.validators.get(name)?.tool.parameters, parameter),
      complete,
    ).filter((call) => argumentsAreValid(call, rules));
  const usable = recover(cutOff);
  // A call the token limit cut off is not completed by guessing: re-asked, with the limit named.
  if (usable.length === 0 && cutOff && recover(false).length > 0) throw cutOffCall(rules, text, "the tool call");
  if (usable.length === 0) return undefined;
  repairs.push({ kind: "text-tool-call", detail: `recovered ${usable.length} tool call(s) written as text` });
  const tag = text.search(/<tool_call>|\[TOOL_CALLS\]/);
  return { calls: usable, text: tag === -1 ? "" : text.slice(0, tag).trim() };
}

export function shouldRecover(rules: OutputRules): boolean {
  if (!rules.fixInvalidToolCalls) return false;
  const mode = rules.choice.mode;
  return mode === "required" || mode === "single" || (mode === "auto" && rules.recoverTextToolCallsOnAuto);
}

/** A call to a name that could be two tools is kept: finalizing it re-asks with the candidates named, never guessing. */
function argumentsAreValid(call: ProviderToolCall, rules: OutputRules): boolean {
  const match = matchToolName(call.name, rules.validators.keys());
  if (match === undefined || !("name" in match)) return match !== undefined;
  const parsed = parseToolArguments(call.args);
  return parsed.ok && rules.validators.get(match.name)!.validate(parsed.args).success;
}
