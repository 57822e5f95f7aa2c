import type { ToolCallError } from "../errors/tool-call-error.js";
import type { RepairKind } from "../output.js";
import type { OutputRules } from "./output-rules.js";
import { toolCallError } from "./tool-call-error-for.js";

/**
 * Whether JSON of a reply the provider cut off at the token limit (finish reason `length`) could be
 * read only by completing it: that would be a guess, so the reply is re-asked instead.
 */
export function completedAtCutOff(cutOff: boolean, repairs: readonly RepairKind[]): boolean {
  return cutOff && repairs.includes("json-repaired");
}

/** Arguments (or a tool call written as text) the token limit cut off: re-asked, and past the budget the caller is told to raise it. */
export function cutOffCall(rules: OutputRules, text: string, what: string, toolName?: string): ToolCallError {
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

export const cutOffAdvice = "The reply hit the token limit (finish reason 'length'): raise parameters.maxTokens.";
