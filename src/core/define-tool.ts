import type { JSONSchema } from "./schema/json-schema.js";
import type { SchemaInput, ZodV3Like, ZodV4Like } from "./schema/schema-input.js";
import { toJSONSchema } from "./schema/to-json-schema.js";
import { schemaKind } from "./schema/schema-input.js";
import { validatorFor } from "./schema/validate.js";
import { readToolShape } from "./read-tool-shape.js";
import type {
  AnyTool,
  InferToolArgs,
  InferToolOutput,
  OpenAIFunctionToolDefinition,
  ParametersToolDefinition,
  Tool,
  ToolDefinition,
  ToolExecute,
  UntypedArgs,
  ZodToolDefinition,
} from "./tool.js";

const toolNamePattern = /^[a-zA-Z0-9_-]{1,64}$/;
const defined = new WeakSet<object>();

/**
 * Defines a tool. Validates the name and the schema and converts the schema eagerly, so a mistake
 * surfaces here with a clear `TypeError` naming the tool rather than as a provider's 400 later.
 *
 * The argument type comes from a zod schema; a JSON Schema tool takes it as a type parameter
 * (`defineTool<{ city: string }>({ name: "get_weather", inputSchema: { ... } })`), else its
 * arguments are `Record<string, unknown>`. The name stays a literal type either way.
 *
 * Tools from elsewhere are taken as they are: `{ name, description?, parameters }` (a JSON Schema
 * under `parameters`, as MCP listings and eval case files write it) and OpenAI's `{ type:
 * "function", function: { name, description?, parameters? } }` (`execute` beside `function`).
 * Anything else is a TypeError saying what was found and what is expected.
 */
export function defineTool<
  const Name extends string,
  S extends ZodV4Like | ZodV3Like,
  O extends SchemaInput | undefined = undefined,
>(definition: ZodToolDefinition<Name, S, O>): Tool<Name, InferToolArgs<S>>;
export function defineTool<
  Args = UntypedArgs,
  const Name extends string = string,
  O extends SchemaInput | undefined = undefined,
>(definition: ToolDefinition<Name, Args, InferToolOutput<O>> & { outputSchema?: O }): Tool<Name, Args>;
export function defineTool<Args = UntypedArgs, const Name extends string = string>(
  definition: ParametersToolDefinition<Name, Args>,
): Tool<Name, Args>;
export function defineTool<Args = UntypedArgs, const Name extends string = string>(
  definition: OpenAIFunctionToolDefinition<Name, Args>,
): Tool<Name, Args>;
export function defineTool(definition: AnyTool): Tool {
  if (defined.has(definition)) return definition as Tool;
  const { name, description, inputSchema, execute } = readToolShape(definition);
  if (typeof name !== "string" || !toolNamePattern.test(name)) {
    throw new TypeError(
      `Invalid tool name ${JSON.stringify(name)}: use 1-64 letters, digits, '_' or '-' (providers reject anything else).`,
    );
  }
  if (description != null && typeof description !== "string") {
    throw new TypeError(
      `Tool '${name}': description must be a string, got ${describeValue(description)} (providers reject anything else).`,
    );
  }
  if (execute !== undefined && typeof execute !== "function") {
    throw new TypeError(
      `Tool '${name}': execute must be a function (args, { signal, toolCall }), got ${describeValue(execute)}.`,
    );
  }
  let parameters: JSONSchema;
  try {
    parameters = toJSONSchema(inputSchema);
  } catch (error) {
    throw new TypeError(`Tool '${name}': ${(error as Error).message}`, { cause: error });
  }
  if (parameters.type !== undefined && parameters.type !== "object") {
    throw new TypeError(
      `Tool '${name}': the input schema must describe an object (got type ${JSON.stringify(parameters.type)}). ` +
        "Wrap the value in an object, e.g. z.object({ value: ... }).",
    );
  }
  // A JSON Schema is compiled now (its validator is kept for the calls), so a broken one names its tool here.
  if (schemaKind(inputSchema) === "json-schema") {
    try {
      validatorFor(inputSchema);
    } catch (error) {
      throw new TypeError(
        `Tool '${name}': its inputSchema is not a valid JSON Schema (${((error as Error).message ?? "").replace(/^Invalid JSON Schema: /, "")}). ` +
          "Fix the schema (each 'type' one of string, number, integer, boolean, object, array, null), or pass a zod schema.",
        { cause: error },
      );
    }
  }
  const runFields = checkRunFields(definition as ToolDefinition, name);
  const tool: Tool = {
    name,
    inputSchema,
    parameters: parameters.type === undefined ? { type: "object", ...parameters } : parameters,
    // A null description (how some tool listings say 'none') is none.
    ...(description == null ? {} : { description: description as string }),
    ...(execute === undefined ? {} : { execute: execute as ToolExecute }),
    ...runFields,
  };
  defined.add(tool);
  return tool;
}

/**
 * A tool given in any shape `defineTool` takes, defined (a list of mixed tools, as `create` and
 * `runTools` are given): `defineTool` without its typed overloads, which check what each shape's
 * `execute` returns.
 */
export function toolFrom(definition: AnyTool): Tool {
  return (defineTool as (definition: AnyTool) => Tool)(definition);
}

/** The fields only `runTools` reads (`outputSchema`, `needsApproval`, `timeoutMs`), checked and kept when given. */
function checkRunFields(
  definition: ToolDefinition,
  name: string,
): Pick<Partial<ToolDefinition>, "outputSchema" | "needsApproval" | "timeoutMs"> {
  const { outputSchema, needsApproval, timeoutMs } = definition;
  const fields: Pick<Partial<ToolDefinition>, "outputSchema" | "needsApproval" | "timeoutMs"> = {};
  if (outputSchema !== undefined) {
    try {
      // Compiled now (a zod schema's check, a JSON Schema's validator), so a broken one names its tool here.
      validatorFor(outputSchema);
    } catch (error) {
      throw new TypeError(`Tool '${name}': its outputSchema is not a usable schema (${(error as Error).message}).`, {
        cause: error,
      });
    }
    fields.outputSchema = outputSchema;
  }
  if (needsApproval !== undefined) {
    if (typeof needsApproval !== "boolean" && typeof needsApproval !== "function") {
      throw new TypeError(
        `Tool '${name}': needsApproval must be true, false or a function (args, context) => boolean, got ${describeValue(needsApproval)}.`,
      );
    }
    fields.needsApproval = needsApproval;
  }
  if (timeoutMs !== undefined) {
    if (typeof timeoutMs !== "number" || !(timeoutMs > 0) || timeoutMs > 2_147_483_647) {
      throw new TypeError(
        `Tool '${name}': timeoutMs must be a positive number of milliseconds (at most 2147483647), got ${describeValue(timeoutMs)}.`,
      );
    }
    fields.timeoutMs = timeoutMs;
  }
  return fields;
}

function describeValue(value: unknown): string {
  return Array.isArray(value)
    ? "an array"
    : typeof value === "object"
      ? "an object"
      : `${typeof value} ${String(value)}`;
}
