import type { ToolCall } from "../messages.js";
import type { Repair } from "../output.js";
import type { OutputRules } from "./output-rules.js";
import { toolCallError } from "./tool-call-error-for.js";

/**
 * Checks the calls against what the caller asked for: no call under "none", a call under
 * "required", the named tool in single mode, and one call unless parallel calls are allowed.
 */
export function checkToolChoice(toolCalls: ToolCall[], text: string, rules: OutputRules, repairs: Repair[]): ToolCall[] {
  const { choice } = rules;
  if (choice.mode === "none" && toolCalls.length > 0) {
    throw toolCallError(rules, "tool-choice-violation", "no tool may be called in this reply: answer in text.", replyOf(text, toolCalls));
  }
  if ((choice.mode === "required" || choice.mode === "single") && toolCalls.length === 0) {
    const wanted = choice.mode === "single" ? `the tool '${choice.toolName}'` : "one of the tools";
    const error = toolCallError(rules, "tool-choice-violation", `you must call ${wanted}; the reply called none.`, replyOf(text, toolCalls));
    if (rules.plan.rung === "native") error.message += ignoredChoiceAdvice(rules, choice.mode);
    throw error;
  }
  if (choice.mode === "single") {
    const other = otherTool(toolCalls, choice.toolName);
    if (other !== undefined) {
      throw toolCallError(
        rules,
        "tool-choice-violation",
        `only the tool '${choice.toolName}' may be called in this reply; the reply called '${other.name}'.`,
        replyOf(text, toolCalls),
        other.name,
      );
    }
  }
  if (toolCalls.length > 1 && !rules.allowParallel) {
    if (rules.ignoreParallel) {
      const dropped = toolCalls.slice(1).map((call) => call.name);
      repairs.push({ kind: "parallel-calls-dropped", detail: `kept the first call and dropped ${dropped.join(", ")}` });
      return toolCalls.slice(0, 1);
    }
    throw toolCallError(
      rules,
      "parallel-calls",
      `call one tool at a time; the reply called ${toolCalls.length} (${toolCalls.map((call) => call.name).join(", ")}).`,
      replyOf(text, toolCalls),
    );
  }
  return toolCalls;
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
