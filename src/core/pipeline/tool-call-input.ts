import type { ToolCall } from "../messages.js";

/**
 * The arguments each final tool call was validated from, when its schema changed them (zod's
 * transforms, defaults, coercion): a stored answer is checked against the schema again on a cache
 * read, and the schema takes its input, not its own output.
 */
const inputs = new WeakMap<ToolCall, unknown>();

export function recordToolCallInput(toolCall: ToolCall, args: unknown): void {
  inputs.set(toolCall, args);
}

/** What the tool's schema accepts for this call: the arguments it was validated from, else its own. */
export function toolCallInput(toolCall: ToolCall): unknown {
  return inputs.has(toolCall) ? inputs.get(toolCall) : toolCall.args;
}
