import type { ChatModelParameters } from "../input.js";

/** One of the common sampling parameters (`seed`, `topK`, `reasoningEffort`, …). */
export type ParameterName = keyof ChatModelParameters;

export const parameterNames: ReadonlySet<string> = new Set<ParameterName>([
  "temperature",
  "maxTokens",
  "topP",
  "topK",
  "stop",
  "seed",
  "frequencyPenalty",
  "presencePenalty",
  "reasoningEffort",
]);

/** The set of an `unsupportedParameters` option or profile field, each name checked (a typo is a TypeError). */
export function toParameterSet(names: Iterable<ParameterName> | undefined, where: string): Set<ParameterName> {
  const set = new Set<ParameterName>();
  if (names === undefined) return set;
  if (typeof names === "string" || typeof (names as Partial<Iterable<unknown>>)[Symbol.iterator] !== "function") {
    throw new TypeError(`${where} must be a list of parameter names, got ${JSON.stringify(names)}.`);
  }
  for (const name of names) {
    if (!parameterNames.has(name)) {
      throw new TypeError(
        `${where}: ${JSON.stringify(name)} is not a parameter name (one of ${[...parameterNames].join(", ")}).`,
      );
    }
    set.add(name);
  }
  return set;
}
