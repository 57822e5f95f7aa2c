import type { SchemaInput } from "./schema/schema-input.js";

/** A tool's fields, whatever shape it came in. */
export interface ToolShape {
  name: unknown;
  description: unknown;
  inputSchema: SchemaInput;
  execute: unknown;
}

const expected =
  "{ name, description?, inputSchema, execute? } (inputSchema a zod or JSON Schema), { name, description?, parameters } " +
  '(a JSON Schema) or OpenAI\'s { type: "function", function: { name, description?, parameters } }';

const isObject = (value: unknown): value is Record<string, unknown> =>
  typeof value === "object" && value !== null && !Array.isArray(value);

/**
 * The fields of a tool given in keelson's shape (`inputSchema`), the listings' (`parameters`) or
 * OpenAI's (`{ type: "function", function }`). Anything else is a TypeError saying what was found
 * and what is expected.
 */
export function readToolShape(definition: unknown): ToolShape {
  if (!isObject(definition)) {
    throw new TypeError(`A tool must be an object: ${expected}; got ${describeFound(definition)}.`);
  }
  const openAIForm =
    definition.type === "function" ||
    ("function" in definition && definition.inputSchema === undefined && definition.parameters === undefined);
  if (openAIForm) {
    const fn = definition.function;
    if (definition.type !== "function" || !isObject(fn)) {
      throw new TypeError(
        `A tool in OpenAI's form is { type: "function", function: { name, description?, parameters } }; got ${describeFound(definition)}.`,
      );
    }
    const parameters = fn.parameters ?? { type: "object", properties: {} };
    return {
      name: fn.name,
      description: fn.description,
      inputSchema: schemaOf(fn.name, parameters),
      execute: definition.execute,
    };
  }
  const { name, description, execute } = definition;
  if (definition.inputSchema !== undefined) {
    return { name, description, inputSchema: definition.inputSchema as SchemaInput, execute };
  }
  if (definition.parameters !== undefined) {
    return { name, description, inputSchema: schemaOf(name, definition.parameters), execute };
  }
  if (typeof name === "string") {
    throw new TypeError(
      `Tool '${name}' has no inputSchema and no parameters: give its arguments' schema as inputSchema (zod or JSON Schema) ` +
        'or parameters (JSON Schema); a tool without arguments takes z.object({}) or { type: "object", properties: {} }.',
    );
  }
  throw new TypeError(`Expected a tool: ${expected}; got ${describeFound(definition)}.`);
}

function schemaOf(name: unknown, parameters: unknown): SchemaInput {
  if (!isObject(parameters)) {
    throw new TypeError(
      `Tool ${JSON.stringify(name)}: parameters must be a JSON Schema object, got ${describeFound(parameters)}.`,
    );
  }
  return parameters as SchemaInput;
}

/** What a value is, short: its type, or an object's keys. */
function describeFound(value: unknown): string {
  if (value === null) return "null";
  if (Array.isArray(value)) return `an array of ${value.length}`;
  if (typeof value === "object") {
    const keys = Object.keys(value);
    const shown = keys.slice(0, 6).map((key) => (key.length > 40 ? `${key.slice(0, 37)}...` : key));
    return keys.length === 0 ? "an empty object" : `an object with ${shown.join(", ")}${keys.length > 6 ? ", …" : ""}`;
  }
  if (typeof value === "string")
    return `the string ${JSON.stringify(value.length > 40 ? `${value.slice(0, 37)}...` : value)}`;
  return `${typeof value} ${String(value)}`;
}
