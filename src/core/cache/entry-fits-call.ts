import type { ToolCall } from "../messages.js";
import type { PreparedCall } from "../call/index.js";
import type { CacheEntry } from "./cache-entry.js";
import { entryWithToolCalls } from "./entry-with-tool-calls.js";

/**
 * A stored answer as this call gets it, or undefined when it does not satisfy the call: every tool
 * call is to a tool the call allows, with arguments its schema accepts, and a structured answer is
 * there when one is asked for and accepted by this call's schema. Arguments and object are served
 * as this call's schemas make them (two schemas with one JSON Schema, and so one cache key, may
 * refine or transform differently; a JSON store keeps no Date). A shared store can hold entries
 * written by other versions or processes; one that does not fit is dropped rather than served.
 */
export function entryFitsCall(entry: CacheEntry, call: PreparedCall): CacheEntry | undefined {
  const { output } = entry;
  if (!Array.isArray(output.toolCalls)) return undefined;
  const inputs = Array.isArray(entry.toolCallInputs) ? entry.toolCallInputs : undefined;
  const toolCalls: ToolCall[] = [];
  let remade = false;
  for (const [index, toolCall] of output.toolCalls.entries()) {
    // The schema takes what it was given: a tool whose schema transforms its input is checked on that input.
    const args = inputs && index in inputs ? inputs[index] : toolCall.args;
    const result = call.rules.validators.get(toolCall.name)?.validate(args);
    if (!result?.success) return undefined;
    // Served as this call's schema makes them: another schema (or a JSON store) made what is stored.
    toolCalls.push({ ...toolCall, args: result.value as Record<string, unknown> });
    if (result.value !== toolCall.args) remade = true;
  }
  // A schema that hands back what it was given (ajv's) leaves the entry as it is: nothing to rebuild.
  const fitting = remade ? entryWithToolCalls(entry, toolCalls) : entry;
  const { structure, structureTool } = call.rules;
  if (!structure && structureTool === undefined) return fitting;
  // With tools under "auto" the reply is tool calls or the object (API.md, "Tools and a final answer").
  if (output.object === undefined)
    return toolCalls.length > 0 && call.rules.choice.mode === "auto" ? fitting : undefined;
  const validate =
    structureTool === undefined ? structure?.validate : call.rules.validators.get(structureTool)?.validate;
  if (!validate) return fitting;
  const result = validate("structureInput" in entry ? entry.structureInput : output.object);
  return result.success ? { ...fitting, output: { ...fitting.output, object: result.value } } : undefined;
}
