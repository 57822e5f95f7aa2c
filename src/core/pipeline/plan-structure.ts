import type { ProviderTool, ResponseFormat } from "../input.js";
import type { SchemaInput } from "../schema/schema-input.js";
import type { JSONSchema } from "../schema/json-schema.js";
import { isPlainObject } from "../schema/json-schema.js";
import { toJSONSchema } from "../schema/to-json-schema.js";
import { validatorFor } from "../schema/validate.js";
import { strictSchema } from "../tool-choice/strict-schema.js";
import { wrapInItem } from "../tool-choice/tool-union-schema.js";
import type { CallShape } from "./call-shape.js";
import type { CallSettings } from "./prepare-call.js";

const defaultName = "response";

function isObjectSchema(schema: JSONSchema): boolean {
  return (
    schema.type === "object" ||
    (schema.type === undefined &&
      isPlainObject(schema.properties) &&
      schema.anyOf === undefined &&
      schema.oneOf === undefined)
  );
}

/**
 * Settles how a structured output travels: the provider's JSON-schema response format where it has
 * one; else a synthetic tool carrying the schema, forced, where the provider can force one tool;
 * else an instruction in the prompt. The reply is validated the same way on every path.
 */
export function planStructure(call: CallShape, format: ResponseFormat, settings: CallSettings): void {
  if (call.plan.readsUnion) {
    throw new TypeError(
      `responseFormat cannot be combined with a forced tool call on ${settings.providerId} ${settings.modelId}: ` +
        "the forced call already travels as the response format. Ask for the tool call and the structured answer in two calls.",
    );
  }
  if (isPlainObject(format) && format.type === "json" && Object.keys(format).length === 1) {
    call.rules.structure = { validate: undefined, schema: undefined, strict: false };
    if (settings.supportsStructuredOutput) call.responseFormat = { type: "json" };
    else call.instructions.push("Answer with only a JSON value, and nothing else.");
    return;
  }
  const named = isPlainObject(format) && format.type === "json-schema" && "schema" in format;
  const schemaInput = (named ? format.schema : format) as SchemaInput;
  const name = (named && typeof format.name === "string" ? format.name : undefined) ?? defaultName;
  const schema = toJSONSchema(schemaInput);
  const validate = validatorFor(schemaInput);

  if (settings.supportsStructuredOutput) {
    const strict = settings.strictResponseFormat;
    // An array or a union at the root is refused by providers that want an object there (OpenAI, Bedrock).
    const wrapped = !settings.supportsTopLevelUnion && !isObjectSchema(schema);
    const sent = wrapped ? wrapInItem(schema) : schema;
    call.responseFormat = {
      type: "json-schema",
      name,
      schema: strict ? strictSchema(sent) : sent,
      ...(strict ? { strict: true } : {}),
    };
    call.rules.structure = { validate, schema, strict, ...(wrapped ? { wrapped } : {}) };
    return;
  }
  const canForceTool = settings.supportsToolCalling && settings.toolChoiceSupport.has("single");
  if (call.tools.length === 0 && canForceTool && schema.type === "object") {
    const tool: ProviderTool = { name, description: "Give the final answer in this shape.", parameters: schema };
    call.tools = [tool];
    call.choice = { mode: "single", toolName: name };
    call.plan = {
      rung: "emulated",
      reason: "no structured output: the schema travels as a forced tool",
      tools: [tool],
      toolChoice: { type: "tool", name },
      readsUnion: false,
      allowedTools: [tool],
    };
    call.rules = {
      ...call.rules,
      choice: call.choice,
      plan: call.plan,
      validators: new Map([[name, { tool, validate }]]),
      structureTool: name,
    };
    return;
  }
  call.rules.structure = { validate, schema, strict: false };
  call.instructions.push(
    `Answer with only a JSON value that matches this JSON Schema, and nothing else:\n${JSON.stringify(schema)}`,
  );
  if (call.tools.length === 0) {
    call.plan = { ...call.plan, rung: "prompt", reason: "no structured output: the schema goes into the prompt" };
    call.rules.plan = call.plan;
  }
}
