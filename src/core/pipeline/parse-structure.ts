import { StructuredOutputError } from "../errors/structured-output-error.js";
import type { Repair } from "../output.js";
import { dropNullOptionals } from "../tool-choice/drop-null-optionals.js";
import { unwrapItem } from "../tool-choice/tool-union-schema.js";
import { parseJSONValue } from "../tool-calls/parse-json-value.js";
import { preview } from "../tool-calls/parse-tool-arguments.js";
import { completedAtCutOff, cutOffAdvice } from "./cut-off.js";
import type { OutputRules } from "./output-rules.js";

/**
 * A structured answer written as text: parsed (repaired), unwrapped from the wire's `{ item }`, nulls
 * of optional fields dropped, validated. `input` is what the schema was given, `object` what it made.
 */
export function parseStructure(
  text: string,
  rules: OutputRules,
  repairs: Repair[],
  cutOff: boolean,
): { input: unknown; object: unknown } {
  const parsed = parseJSONValue(text);
  const fail = (issues: string[], advice = "") =>
    new StructuredOutputError(
      `${rules.providerId} ${rules.modelId} did not return the structured output asked for: ${issues.join("; ")}${advice}`,
      { text, issues, providerId: rules.providerId, modelId: rules.modelId },
    );
  if (!parsed) throw fail([`the reply is not JSON: ${preview(text)}`]);
  if (completedAtCutOff(cutOff, parsed.repairs)) {
    throw fail(
      ["the reply was cut off at the token limit before its JSON was complete; send it again, complete and shorter"],
      `\n${cutOffAdvice}`,
    );
  }
  for (const kind of parsed.repairs) repairs.push({ kind, detail: `structured output: ${kind}` });
  const structure = rules.structure!;
  let value = parsed.value;
  if (structure.wrapped) value = unwrapItem(value);
  if (structure.strict && structure.schema) value = dropNullOptionals(value, structure.schema);
  if (!structure.validate) return { input: value, object: value };
  const result = structure.validate(value);
  if (!result.success) throw fail(result.issues);
  return { input: value, object: result.value };
}
