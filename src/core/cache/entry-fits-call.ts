import type { PreparedCall } from "../pipeline/prepare-call.js";
import type { CacheEntry } from "./cache-entry.js";

/**
 * A stored answer as this call gets it, or undefined when it does not satisfy the call: every tool
 * call is to a tool the call allows, with arguments its schema accepts, and a structured answer is
 * there when one is asked for, accepted by this call's schema and made again by it (two schemas
 * with one JSON Schema, and so one cache key, may refine or transform differently). A shared store
 * can hold entries written by other versions or processes; one that does not fit is dropped rather
 * than served.
 */
export function entryFitsCall(entry: CacheEntry, call: PreparedCall): CacheEntry | undefined {
  const { output } = entry;
  if (!Array.isArray(output.toolCalls)) return undefined;
  const inputs = Array.isArray(entry.toolCallInputs) ? entry.toolCallInputs : undefined;
  for (const [index, toolCall] of output.toolCalls.entries()) {
    const validator = call.rules.validators.get(toolCall.name);
    // The schema takes what it was given: a tool whose schema transforms its input is checked on that input.
    const args = inputs && index in inputs ? inputs[index] : toolCall.args;
    if (!validator || !validator.validate(args).success) return undefined;
  }
  const { structure, structureTool } = call.rules;
  if (!structure && structureTool === undefined) return entry;
  if (output.object === undefined) return undefined;
  const validate = structureTool === undefined ? structure?.validate : call.rules.validators.get(structureTool)?.validate;
  if (!validate) return entry;
  const result = validate("structureInput" in entry ? entry.structureInput : output.object);
  return result.success ? { ...entry, output: { ...output, object: result.value } } : undefined;
}
