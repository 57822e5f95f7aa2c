import type { ChatModelInput, InferSchemaOutput, StructureInput } from "../input.js";
import type { ChatModelOutput } from "../output.js";
import type { SchemaInput } from "../schema/schema-input.js";

/**
 * `createStructure` for any model: the call made with `responseFormat` the schema (named, when a
 * name is given), and its object typed by the schema (parsed and validated by the model's call).
 */
export async function createStructure<S extends SchemaInput>(
  model: { create(input: ChatModelInput): Promise<ChatModelOutput> },
  input: StructureInput<S>,
): Promise<{ object: InferSchemaOutput<S>; output: ChatModelOutput }> {
  const { schema, name, ...rest } = input;
  const output = await model.create({
    ...rest,
    responseFormat: { type: "json-schema", schema, ...(name === undefined ? {} : { name }) },
  });
  return { object: output.object as InferSchemaOutput<S>, output };
}
