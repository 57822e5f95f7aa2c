import type { JSONSchema } from "../schema/json-schema.js";
import { isPlainObject } from "../schema/json-schema.js";

/**
 * Replaces local `$ref`s (`#/$defs/…`, `#/definitions/…`) with the schema they point to, since many
 * providers do not dereference. A recursive reference cannot be inlined and becomes `{}` (any value)
 * at the point where it would recur.
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
