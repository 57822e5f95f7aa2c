import type { PreparedCall } from "../pipeline/prepare-call.js";
import type { CacheEntry } from "./cache-entry.js";

/**
 * Whether a stored answer still satisfies this call: every tool call is to a tool the call allows,
 * with arguments its schema accepts, and a structured answer is there when one is asked for. A
 * shared store can hold entries written by other versions or processes; one that does not fit is
 * dropped rather than served.
 */
export function entryFitsCall(entry: CacheEntry, call: PreparedCall): boolean {
  const { output } = entry;
  if (!Array.isArray(output.toolCalls)) return false;
  const inputs = Array.isArray(entry.toolCallInputs) ? entry.toolCallInputs : undefined;
  for (const [index, toolCall] of output.toolCalls.entries()) {
    const validator = call.rules.validators.get(toolCall.name);
    // The schema takes what it was given: a tool whose schema transforms its input is checked on that input.
    const args = inputs && index in inputs ? inputs[index] : toolCall.args;
    if (!validator || !validator.validate(args).success) return false;
  }
  if ((call.rules.structure || call.rules.structureTool) && output.object === undefined) return false;
  return true;
}
