import type { ProviderTool, ResponseFormat } from "../input.js";
import type { JSONSchema } from "../schema/json-schema.js";
import { isPlainObject } from "../schema/json-schema.js";
import type { SchemaInput } from "../schema/schema-input.js";
import { toJSONSchema } from "../schema/to-json-schema.js";
import type { Validator } from "../schema/validate.js";
import { validatorFor } from "../schema/validate.js";
import { answerToolDescription, answerToolName } from "../tool-choice/resolve-tools-or-answer.js";
import type { ModelSettings } from "../model-settings.js";
import { strictSchema } from "../tool-choice/strict-schema.js";
import type { NormalizedToolChoice } from "../tool-choice/tool-choice-mode.js";
import { unwrapItem, wrapInItem } from "../tool-choice/tool-union-schema.js";
import type { OutputRules, PreparedCall } from "./prepared-call.js";

// How a call's structured answer travels: beside its tools as one more choice (answerTool), or
// alone (planStructure): the provider's JSON-schema format, a forced tool, or an instruction.

/**
 * Whether a call with tools and a response format gets its answer as one more choice beside the
 * tools (the provider cannot take both in one request, or cannot call tools at all). Throws a
 * TypeError for a combination that asks for two different replies, and for a tool that takes the
 * answer's reserved name.
 */
export function answersBesideTools(
  choice: NormalizedToolChoice,
  toolsByName: ReadonlyMap<string, unknown>,
  settings: ModelSettings,
): boolean {
  if (choice.mode === "required" || choice.mode === "single") {
    const forced = choice.mode === "single" ? `one tool ('${choice.toolName}')` : "'required'";
    throw new TypeError(
      `toolChoice ${forced} cannot be combined with responseFormat: the first asks for a tool call, the second for the final answer in a shape. ` +
        'Use toolChoice "auto" (the default) to get either the tool calls or the answer, or ask in two calls.',
    );
  }
  if (toolsByName.has(answerToolName)) {
    throw new TypeError(
      `A tool is named '${answerToolName}', which keelson reserves for the final answer of a call with tools and a responseFormat: rename the tool.`,
    );
  }
  return (
    choice.mode === "auto" &&
    !(settings.supportsToolCalling && settings.supportsStructuredOutput && settings.supportsResponseFormatWithTools)
  );
}

/**
 * The answer of a call with tools and a response format, as a tool: its parameters the schema (an
 * object root as it is, anything else under `item`), its validator the schema's (unwrapping `item`).
 */
export function answerTool(format: ResponseFormat): {
  tool: ProviderTool;
  validate: Validator;
  structure: NonNullable<OutputRules["structure"]>;
} {
  const read = readFormat(format);
  const schema = read?.schema ?? {};
  const validate = read?.validate ?? anyValue;
  const wrapped = !isObjectSchema(schema);
  const tool: ProviderTool = {
    name: answerToolName,
    description: answerToolDescription,
    parameters: wrapped ? wrapInItem(schema) : schema,
  };
  return {
    tool,
    validate: wrapped ? (value) => validate(unwrapItem(value)) : validate,
    structure: { validate: read?.validate, schema: read?.schema, strict: false, ...(wrapped ? { wrapped } : {}) },
  };
}

const anyValue: Validator = (value) => ({ success: true, value });

/** A response format's schema and validator; undefined for free JSON (`{ type: "json" }`). */
function readFormat(format: ResponseFormat): { schema: JSONSchema; validate: Validator; name: string } | undefined {
  if (isPlainObject(format) && format.type === "json" && Object.keys(format).length === 1) return undefined;
  const named = isPlainObject(format) && format.type === "json-schema" && "schema" in format;
  const schemaInput = (named ? format.schema : format) as SchemaInput;
  const name = (named && typeof format.name === "string" ? format.name : undefined) ?? defaultName;
  return { schema: toJSONSchema(schemaInput), validate: validatorFor(schemaInput), name };
}

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
export function planStructure(call: PreparedCall, format: ResponseFormat, settings: ModelSettings): void {
  const read = readFormat(format);
  if (read === undefined) {
    call.rules.structure = { validate: undefined, schema: undefined, strict: false };
    if (settings.supportsStructuredOutput) call.responseFormat = { type: "json" };
    else call.instructions.push("Answer with only a JSON value, and nothing else.");
    return;
  }
  const { schema, validate, name } = read;

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
  // No tool may be called (none given, or toolChoice "none"): the schema can be the one tool there is.
  if (call.plan.allowedTools.length === 0 && canForceTool && schema.type === "object") {
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
