import type { ChatModelOutput } from "../output.js";

/**
 * The value each final output's structured object was validated from, when the schema changed it
 * (zod's transforms, defaults, coercion): a stored answer is checked against the schema of the call
 * it serves on a cache read, and the schema takes its input, not its own output.
 */
const inputs = new WeakMap<object, unknown>();

export function recordStructureInput(output: object, input: unknown): void {
  inputs.set(output, input);
}

/** What the schema accepts for this output: the value its object was validated from, else the object. */
export function structureInput(output: ChatModelOutput): unknown {
  return inputs.has(output) ? inputs.get(output) : output.object;
}
