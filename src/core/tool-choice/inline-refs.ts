import type { JSONSchema } from "../schema/json-schema.js";
import { isPlainObject } from "../schema/json-schema.js";

/**
 * Replaces local `$ref`s (`#/$defs/…`, `#/definitions/…`) with the schema they point to, since many
 * providers do not dereference. A recursive reference cannot be inlined and becomes `{}` (any value)
 * at the point where it would recur. That includes `#` (zod's recursion back to the root): once the
 * schema is moved into another one (the tool union), `#` would point at the new root.
 */
export function inlineRefs(schema: JSONSchema): JSONSchema {
  const definitions = { ...asRecord(schema.definitions), ...asRecord(schema.$defs) };
  if (Object.keys(definitions).length === 0 && !JSON.stringify(schema).includes('"$ref"')) return schema;
  const { $defs: _defs, definitions: _definitions, ...root } = schema;
  return walk(root, definitions, []) as JSONSchema;
}

function walk(node: unknown, definitions: Record<string, unknown>, stack: string[]): unknown {
  if (Array.isArray(node)) return node.map((item) => walk(item, definitions, stack));
  if (!isPlainObject(node)) return node;
  const ref = node.$ref;
  if (ref === "#") {
    // Everything is inside the root, so a reference to it always recurs.
    const { $ref: _ref, ...siblings } = node;
    return walk(siblings, definitions, stack);
  }
  if (typeof ref === "string") {
    const name = /^#\/(?:\$defs|definitions)\/(.+)$/.exec(ref)?.[1];
    const target = name === undefined ? undefined : definitions[decodeURIComponent(name)];
    if (name !== undefined && target !== undefined) {
      if (stack.includes(name)) return {};
      const { $ref: _ref, ...siblings } = node;
      const resolved = walk(target, definitions, [...stack, name]) as Record<string, unknown>;
      return { ...resolved, ...(walk(siblings, definitions, stack) as Record<string, unknown>) };
    }
  }
  const result: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(node)) result[key] = walk(value, definitions, stack);
  return result;
}

function asRecord(value: unknown): Record<string, unknown> {
  return isPlainObject(value) ? value : {};
}
