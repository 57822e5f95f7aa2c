import type { JSONSchema } from "../schema/json-schema.js";
import { isPlainObject } from "../schema/json-schema.js";
import { inlineRefs } from "./inline-refs.js";
import { rootAsDefinition } from "../schema/root-refs.js";
import { strictSchema } from "./strict-schema.js";

/** How `toolUnionSchema` shapes the union. */
export interface ToolUnionSchemaOptions {
  /** Several calls in one reply: the schema is an array of calls. @default false */
  parallel?: boolean | undefined;
  /** Wrap the union as `{ item: … }` for providers that want an object at the root. @default false */
  wrap?: boolean | undefined;
  /** Every property required and no extra keys, as OpenAI's strict mode demands. @default false */
  strict?: boolean | undefined;
}

/** A tool as the union needs it: its name and its arguments' JSON Schema. */
export interface UnionTool {
  name: string;
  description?: string;
  parameters: JSONSchema;
}

/** The key under which a wrapped union holds its value. */
export const unionWrapKey = "item";

const cache = new Map<string, JSONSchema>();
const schemaIds = new WeakMap<object, number>();
let nextSchemaId = 0;
const maxCachedSchemas = 256;

/**
 * Compiles tools into one JSON Schema that a structured-output request can force: each tool is
 * `{ name: <that name>, parameters: <its schema> }`; several tools are an `anyOf`; parallel calls an
 * array. Computed once per distinct tool set and options, then reused.
 */
export function toolUnionSchema(tools: readonly UnionTool[], options: ToolUnionSchemaOptions = {}): JSONSchema {
  if (tools.length === 0) throw new TypeError("toolUnionSchema needs at least one tool.");
  const key = cacheKey(tools, options);
  const cached = cache.get(key);
  if (cached) return cached;
  const schema = build(tools, options);
  if (cache.size >= maxCachedSchemas) cache.delete(cache.keys().next().value as string);
  cache.set(key, schema);
  return schema;
}

function build(tools: readonly UnionTool[], options: ToolUnionSchemaOptions): JSONSchema {
  const variants = tools.map((tool) => toolVariant(tool, options.strict === true));
  let schema: JSONSchema = variants.length === 1 ? variants[0]! : { anyOf: variants };
  if (options.parallel) schema = { type: "array", items: schema, minItems: 1 };
  return options.wrap ? wrapInItem(schema) : schema;
}

/**
 * A schema moved under `item` of an object root, for providers that want an object there (the tool
 * union, a structured answer whose root is an array or a union); its `$defs` stay at the root.
 */
export function wrapInItem(schema: JSONSchema): JSONSchema {
  // A body that refers to its root (`#`, zod's recursion), itself or through a definition, would
  // point at the wrapper: it moves into the definitions, and every reference to it follows.
  const moved = rootAsDefinition(schema, unionWrapKey);
  if (moved) return wrapped({ $ref: moved.ref }, moved.$defs, moved.definitions);
  const { $defs, definitions, ...body } = schema;
  return wrapped(body, $defs, definitions);
}

function wrapped(item: unknown, $defs: unknown, definitions: unknown): JSONSchema {
  return {
    type: "object",
    properties: { [unionWrapKey]: item },
    required: [unionWrapKey],
    additionalProperties: false,
    ...($defs === undefined ? {} : { $defs }),
    ...(definitions === undefined ? {} : { definitions }),
  };
}

/** A reply to a wrapped schema, unwrapped: `{ item: x }` alone is `x`; anything else is itself (a bare reply is accepted too). */
export function unwrapItem(value: unknown): unknown {
  return isPlainObject(value) && Object.keys(value).length === 1 && unionWrapKey in value ? value[unionWrapKey] : value;
}

function toolVariant(tool: UnionTool, strict: boolean): JSONSchema {
  let parameters = inlineRefs(tool.parameters, `the tool '${tool.name}'`);
  if (strict) parameters = strictSchema(takesNothing(parameters) ? { ...parameters, properties: {} } : parameters);
  const { $schema: _ignored, ...body } = parameters;
  return {
    type: "object",
    ...(tool.description ? { description: tool.description } : {}),
    properties: { name: { type: "string", enum: [tool.name] }, parameters: body },
    required: ["name", "parameters"],
    additionalProperties: false,
  };
}

/**
 * A tool's parameters that list no properties and allow no schema for extra keys (`{ type: "object" }`,
 * as MCP servers describe a tool without arguments): strict mode demands a closed object there.
 */
function takesNothing(parameters: JSONSchema): boolean {
  return (
    parameters.properties === undefined &&
    parameters.type === "object" &&
    !isPlainObject(parameters.additionalProperties)
  );
}

function cacheKey(tools: readonly UnionTool[], options: ToolUnionSchemaOptions): string {
  let key = `${options.parallel ? 1 : 0}${options.wrap ? 1 : 0}${options.strict ? 1 : 0}`;
  for (const tool of tools) key += `|${tool.name}#${schemaId(tool.parameters)}#${tool.description ?? ""}`;
  return key;
}

function schemaId(schema: object): number {
  let id = schemaIds.get(schema);
  if (id === undefined) {
    id = nextSchemaId++;
    schemaIds.set(schema, id);
  }
  return id;
}
