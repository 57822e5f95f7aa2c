import type { ToolCall } from "./messages.js";
import type { JSONSchema } from "./schema/json-schema.js";
import type { SchemaInput } from "./schema/schema-input.js";
import { toJSONSchema } from "./schema/to-json-schema.js";

/** What a tool's `execute` is given beside its arguments. */
export interface ToolExecuteContext {
  /** Aborts when the run is aborted: pass it on to what the tool awaits (fetch, a query). */
  signal: AbortSignal;
  /** The call being executed. */
  toolCall: ToolCall;
}

/** What `defineTool` takes. */
export interface ToolDefinition {
  /** 1–64 characters of letters, digits, `_` and `-` (the rule every provider enforces). */
  name: string;
  /** What the tool does, for the model. @default none */
  description?: string;
  /** A zod v4 schema, a zod v3 schema, or a JSON Schema object for the tool's arguments. */
  inputSchema: SchemaInput;
  /**
   * Runs the tool, for `runTools`: its return value goes back to the model as the tool message (a
   * string as is, anything else as JSON). A tool without it ends a run that calls it, the call left
   * to the caller. @default none
   */
  execute?: (args: Record<string, unknown>, context: ToolExecuteContext) => unknown;
}

/** A tool the model may call. Its JSON Schema is computed once, when the tool is defined. */
export interface Tool extends ToolDefinition {
  /** The arguments' JSON Schema, as sent to the provider. */
  readonly parameters: JSONSchema;
}

const toolNamePattern = /^[a-zA-Z0-9_-]{1,64}$/;
const defined = new WeakSet<object>();

/**
 * Defines a tool. Validates the name and converts the schema eagerly, so a mistake surfaces here
 * with a clear `TypeError` rather than as a provider's 400 later.
 */
export function defineTool(definition: ToolDefinition): Tool {
  if (defined.has(definition)) return definition as Tool;
  if (definition === null || typeof definition !== "object") {
    throw new TypeError("defineTool expects { name, description?, inputSchema }.");
  }
  const { name, description, inputSchema, execute } = definition;
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
      `Tool '${name}': execute must be a function (args, context) => result, got ${describeValue(execute)}.`,
    );
  }
  if (inputSchema === undefined) {
    throw new TypeError(`Tool '${name}' has no inputSchema: pass z.object({}) for a tool without arguments.`);
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
  const tool: Tool = {
    name,
    inputSchema,
    parameters: parameters.type === undefined ? { type: "object", ...parameters } : parameters,
    // A null description (how some tool listings say 'none') is none.
    ...(description == null ? {} : { description }),
    ...(execute === undefined ? {} : { execute }),
  };
  defined.add(tool);
  return tool;
}

function describeValue(value: unknown): string {
  return Array.isArray(value)
    ? "an array"
    : typeof value === "object"
      ? "an object"
      : `${typeof value} ${String(value)}`;
}
