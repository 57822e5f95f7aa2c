import type { JSONSchema } from "./json-schema.js";
import { isPlainObject, ownEntry } from "./json-schema.js";

/**
 * The form of JSON Schema a provider family accepts, which an adapter declares (`schemaForm`):
 * `"gemini"` — Gemini's subset: `$ref` inlined (`$defs`/`definitions` gone), no `$schema`, `$id`,
 * `$comment` or `additionalProperties`, `oneOf` read as `anyOf`, `const` as a one-value `enum`;
 * `"inline-refs"` — `$ref` inlined and `$schema` left out, for a grammar that follows no reference
 * (Ollama's `format`). No form: the schema as it is (OpenAI's strict form is the ladder's, when asked).
 */
export type SchemaForm = "gemini" | "inline-refs";

/** A schema as sent, and what was changed to send it (empty when nothing was). */
export interface ProjectedSchema {
  schema: JSONSchema;
  changes: string[];
}

/** How deep a recursive `$ref` is unrolled before it is cut to an empty schema. */
const maxRefDepth = 3;
/** Keywords whose value is a schema, or a map or list of schemas: walked, never mistaken for names. */
const schemaValued = new Set([
  "items",
  "additionalItems",
  "contains",
  "not",
  "if",
  "then",
  "else",
  "propertyNames",
  "unevaluatedItems",
  "unevaluatedProperties",
  "additionalProperties",
]);
const schemaMaps = new Set(["properties", "patternProperties", "dependentSchemas", "$defs", "definitions"]);
const schemaLists = new Set(["anyOf", "oneOf", "allOf", "prefixItems"]);

const geminiDropped = ["$schema", "$id", "$comment", "additionalProperties"];

const cache = new WeakMap<JSONSchema, Map<string, ProjectedSchema>>();

/**
 * `schema` in the `form` its provider accepts, without the `refused` keywords (those a provider's
 * 400 refused, learned for the process), with a sentence per kind of change. The caller's schema is
 * never changed; the same schema, form and refusals give the same (cached) projection. Arguments
 * are still validated against the original schema.
 */
export function projectSchema(
  schema: JSONSchema,
  form: SchemaForm | undefined,
  refused: ReadonlySet<string> = new Set(),
): ProjectedSchema {
  if (form === undefined && refused.size === 0) return { schema, changes: [] };
  const key = `${form ?? ""}\u0000${[...refused].sort().join(",")}`;
  let forms = cache.get(schema);
  const cached = forms?.get(key);
  if (cached) return cached;
  const changes = new Set<string>();
  const dropped = new Set<string>(refused);
  if (form === "gemini") for (const keyword of geminiDropped) dropped.add(keyword);
  if (form === "inline-refs") dropped.add("$schema");
  const context: Context = { root: schema, form, dropped, changes, expanding: [] };
  const projected = walk(schema, context, form !== undefined) as JSONSchema;
  const result: ProjectedSchema =
    changes.size === 0 ? { schema, changes: [] } : { schema: projected, changes: [...changes] };
  if (!forms) cache.set(schema, (forms = new Map()));
  forms.set(key, result);
  return result;
}

interface Context {
  root: JSONSchema;
  form: SchemaForm | undefined;
  dropped: ReadonlySet<string>;
  changes: Set<string>;
  /** The `$ref`s being inlined, outermost first: a reference to one of them is recursion. */
  expanding: string[];
}

/** One schema node, projected; `inline` when its `$ref`s are to be replaced by what they point at. */
function walk(node: unknown, context: Context, inline: boolean): unknown {
  if (!isPlainObject(node)) return node;
  if (inline && typeof node.$ref === "string") return inlineRef(node, context);
  const result: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(node)) {
    if (context.dropped.has(key)) {
      context.changes.add(`'${key}' left out`);
      continue;
    }
    if (inline && key === "$ref") {
      context.changes.add("a '$ref' that is no reference left out");
      continue;
    }
    if (context.form === "gemini" && ((key === "oneOf" && "anyOf" in node) || (key === "const" && "enum" in node))) {
      context.changes.add(`'${key}' beside '${key === "oneOf" ? "anyOf" : "enum"}' left out`);
      continue;
    }
    if (inline && (key === "$defs" || key === "definitions")) {
      context.changes.add("'$ref' inlined ('$defs'/'definitions' left out)");
      continue;
    }
    let name = key;
    let projected: unknown;
    if (schemaMaps.has(key) && isPlainObject(value)) {
      const map: Record<string, unknown> = {};
      for (const [entry, schema] of Object.entries(value)) map[entry] = walk(schema, context, inline);
      projected = map;
    } else if (schemaLists.has(key) || schemaValued.has(key)) {
      projected = Array.isArray(value)
        ? value.map((schema) => walk(schema, context, inline))
        : walk(value, context, inline);
    } else projected = value;
    if (context.form === "gemini" && key === "oneOf") {
      name = "anyOf";
      context.changes.add("'oneOf' sent as 'anyOf'");
    }
    if (context.form === "gemini" && key === "const") {
      name = "enum";
      projected = [value];
      context.changes.add("'const' sent as a one-value 'enum'");
    }
    result[name] = projected;
  }
  return result;
}

/** A `$ref` node replaced by the definition it points at (its siblings kept), recursion cut after a few levels. */
function inlineRef(node: Record<string, unknown>, context: Context): unknown {
  const ref = node.$ref as string;
  const { $ref: _ref, ...siblings } = node;
  const target = resolvePointer(context.root, ref);
  if (target === undefined) {
    context.changes.add(`'$ref' ${JSON.stringify(ref)} (not a local definition) left out`);
    return walk(siblings, context, true);
  }
  const depth = context.expanding.filter((seen) => seen === ref).length;
  if (depth >= maxRefDepth) {
    context.changes.add(`recursive '$ref' ${JSON.stringify(ref)} cut after ${maxRefDepth} levels`);
    return walk(siblings, context, true);
  }
  context.changes.add("'$ref' inlined ('$defs'/'definitions' left out)");
  context.expanding.push(ref);
  try {
    const inlined = walk(target, context, true);
    return isPlainObject(inlined) ? { ...inlined, ...(walk(siblings, context, true) as object) } : inlined;
  } finally {
    context.expanding.pop();
  }
}

/** The node a local JSON pointer (`#`, `#/$defs/Name`, `#/definitions/a~1b`) points at, if any. */
function resolvePointer(root: JSONSchema, ref: string): unknown {
  if (ref === "#") return root;
  if (!ref.startsWith("#/")) return undefined;
  let current: unknown = root;
  for (const raw of ref.slice(2).split("/")) {
    const segment = decodeURIComponent(raw).replace(/~1/g, "/").replace(/~0/g, "~");
    if (Array.isArray(current)) current = current[Number(segment)];
    else if (isPlainObject(current)) current = ownEntry(current, segment);
    else return undefined;
    if (current === undefined) return undefined;
  }
  return current;
}

/** Whether a schema uses `keyword` as a keyword anywhere (not as a property's name). */
export function usesKeyword(node: unknown, keyword: string): boolean {
  if (Array.isArray(node)) return node.some((item) => usesKeyword(item, keyword));
  if (!isPlainObject(node)) return false;
  for (const [key, value] of Object.entries(node)) {
    if (key === keyword) return true;
    if (schemaMaps.has(key) && isPlainObject(value)) {
      if (Object.values(value).some((schema) => usesKeyword(schema, keyword))) return true;
    } else if ((schemaLists.has(key) || schemaValued.has(key)) && usesKeyword(value, keyword)) return true;
  }
  return false;
}

/** What one request's schemas became: the input to send, and per tool (or the response format) what changed. */
export interface ProjectedInput<I> {
  input: I;
  /** `[name, changes]` for each tool (or `response format`) whose schema was changed. */
  changed: [string, string[]][];
}

/**
 * A request's tool and response-format schemas in the adapter's form, without the keywords its
 * provider refused. The input is the call's own (made per attempt): its tools list is replaced, never
 * a caller's object changed.
 */
export function projectInputSchemas<
  I extends {
    tools?: { name: string; parameters: JSONSchema }[];
    responseFormat?: { type: "json-schema"; name: string; schema: JSONSchema } | { type: "json" };
  },
>(input: I, form: SchemaForm | undefined, refused: ReadonlySet<string>): ProjectedInput<I> {
  const changed: [string, string[]][] = [];
  if (form === undefined && refused.size === 0) return { input, changed };
  if (input.tools && input.tools.length > 0) {
    input.tools = input.tools.map((tool) => {
      const { schema, changes } = projectSchema(tool.parameters, form, refused);
      if (changes.length === 0) return tool;
      changed.push([tool.name, changes]);
      return { ...tool, parameters: schema };
    });
  }
  const format = input.responseFormat;
  if (format?.type === "json-schema") {
    const { schema, changes } = projectSchema(format.schema, form, refused);
    if (changes.length > 0) {
      changed.push([`response format '${format.name}'`, changes]);
      input.responseFormat = { ...format, schema };
    }
  }
  return { input, changed };
}
