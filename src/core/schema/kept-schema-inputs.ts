/**
 * What a schema was given, for each value it made when it changed it (zod's transforms, defaults,
 * coercion): a final tool call's arguments, an output's structured object. A stored answer is
 * checked against the schema again on a cache read, and the schema takes its input, not its output.
 * Keyed by the object holding what was made (the tool call, the output).
 */
const inputs = new WeakMap<object, unknown>();

export function recordSchemaInput(holder: object, input: unknown): void {
  inputs.set(holder, input);
}

/** What the schema was given for the value `holder` holds: the recorded input, else `made` itself. */
export function schemaInputOf(holder: object, made: unknown): unknown {
  return inputs.has(holder) ? inputs.get(holder) : made;
}
