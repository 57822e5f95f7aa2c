import type { ToolCallError } from "../errors/tool-call-error.js";
import type { ToolCall } from "../messages.js";
import type { Repair } from "../output.js";
import type { OutputRules } from "./prepared-call.js";
import { toolCallError } from "./read-tool-calls.js";

/**
 * Checks the calls against what the caller asked for: no call under "none", a call under
 * "required", the named tool in single mode, and one call unless parallel calls are allowed.
 * The checks come first and each failure is worded in its own function: this runs on every reply,
 * and its code stays small.
 */
export function checkToolChoice(
  toolCalls: ToolCall[],
  text: string,
  rules: OutputRules,
  repairs: Repair[],
): ToolCall[] {
  const { choice } = rules;
  const count = toolCalls.length;
  if (choice.mode === "none" ? count > 0 : choice.mode !== "auto" && count === 0)
    throw choiceViolation(toolCalls, text, rules);
  if (choice.mode === "single" && otherTool(toolCalls, choice.toolName) !== undefined)
    throw choiceViolation(toolCalls, text, rules);
  if (count > 1 && !rules.allowParallel) return tooManyCalls(toolCalls, text, rules, repairs);
  return toolCalls;
}

/** The error for calls the tool_choice does not allow: any under "none", none when one is forced, another tool than the one forced. */
function choiceViolation(toolCalls: ToolCall[], text: string, rules: OutputRules): ToolCallError {
  const { choice } = rules;
  const reply = replyOf(text, toolCalls);
  if (choice.mode === "none") {
    return toolCallError(rules, "tool-choice-violation", "no tool may be called in this reply: answer in text.", reply);
  }
  if (toolCalls.length === 0) {
    const mode = choice.mode === "single" ? "single" : "required";
    const wanted = choice.mode === "single" ? `the tool '${choice.toolName}'` : "one of the tools";
    const error = toolCallError(
      rules,
      "tool-choice-violation",
      `you must call ${wanted}; the reply called none.`,
      reply,
    );
    // Only prose in place of the call shows the provider ignored tool_choice (an empty reply does not).
    if (rules.plan.rung === "native" && text !== "") error.message += ignoredChoiceAdvice(rules, mode);
    return error;
  }
  const forced = choice.mode === "single" ? choice.toolName : "";
  const other = otherTool(toolCalls, forced)!;
  return toolCallError(
    rules,
    "tool-choice-violation",
    `only the tool '${forced}' may be called in this reply; the reply called '${other.name}'.`,
    reply,
    other.name,
  );
}

/** Several calls where one is allowed: the first kept (ignoreParallelToolCalls), else the error. */
function tooManyCalls(toolCalls: ToolCall[], text: string, rules: OutputRules, repairs: Repair[]): ToolCall[] {
  if (rules.ignoreParallel) {
    const dropped = toolCalls.slice(1).map((call) => call.name);
    repairs.push({ kind: "parallel-calls-dropped", detail: `kept the first call and dropped ${dropped.join(", ")}` });
    return toolCalls.slice(0, 1);
  }
  const error = toolCallError(
    rules,
    "parallel-calls",
    `call one tool at a time; the reply called ${toolCalls.length} (${toolCalls.map((call) => call.name).join(", ")}).`,
    replyOf(text, toolCalls),
  );
  error.message += parallelCallsAdvice(rules);
  throw error;
}

/** The copy-paste fix for replies with several calls, when the caller's code can run them all. */
function parallelCallsAdvice(rules: OutputRules): string {
  const firstArgument = rules.modelClass === "ScriptedChatModel" ? "steps" : JSON.stringify(rules.modelId);
  return (
    "\nParallel tool calls are off (allowParallelToolCalls: false, the default), so such a reply is re-asked. " +
    "If your code runs every call of a reply, allow them with allowParallelToolCalls: true:\n" +
    `  new ${rules.modelClass}(${firstArgument}, { allowParallelToolCalls: true })\n` +
    "or for one call: parallelToolCalls: true; or keep the first call only: ignoreParallelToolCalls: true."
  );
}

/** The reply an error quotes; only an error serialises the calls (doing it on every call was most of this check's time). */
function replyOf(text: string, toolCalls: ToolCall[]): string {
  return text || JSON.stringify(toolCalls.map(({ name, args }) => ({ name, arguments: args })));
}

/** The first call to a tool other than `name`. */
function otherTool(toolCalls: ToolCall[], name: string): ToolCall | undefined {
  for (let index = 0; index < toolCalls.length; index++) if (toolCalls[index]!.name !== name) return toolCalls[index];
  return undefined;
}

/** The copy-paste fix for a provider that silently ignores a forced tool_choice. */
function ignoredChoiceAdvice(rules: OutputRules, mode: "required" | "single"): string {
  const smaller = [...rules.toolChoiceSupport].filter((value) => value !== mode);
  const set = `new Set(${JSON.stringify(smaller)})`;
  return (
    `\nThe provider was sent tool_choice '${mode}' and ignored it. If it does not honour '${mode}', ` +
    "let keelson force the call through structured output instead:\n" +
    `  new ${rules.modelClass}(${JSON.stringify(rules.modelId)}, { toolChoiceSupport: ${set} })\n` +
    "or on this instance:\n" +
    `  model.toolChoiceSupport = ${set};`
  );
}
