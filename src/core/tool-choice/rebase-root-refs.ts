import type { JSONSchema } from "../schema/json-schema.js";
import { isPlainObject } from "../schema/json-schema.js";

/**
 * Whether a schema refers to its own root: `#` (zod's recursion back to the root) or a `#/…`
 * pointer into it other than its definitions, which stay at the root wherever the schema moves.
 */
export function refersToRoot(node: unknown): boolean {
  if (Array.isArray(node)) return node.some(refersToRoot);
  if (!isPlainObject(node)) return false;
  if (typeof node.$ref === "string" && isRootPointer(node.$ref)) return true;
  return Object.values(node).some(refersToRoot);
}

/** The schema with each reference to its root made relative to `base`, where the schema now lives. */
export function rebaseRootRefs(schema: JSONSchema, base: string): JSONSchema {
  return rebase(schema, base) as JSONSchema;
}

function rebase(node: unknown, base: string): unknown {
  if (Array.isArray(node)) return node.map((item) => rebase(item, base));
  if (!isPlainObject(node)) return node;
  const result: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(node)) {
    result[key] = key === "$ref" && typeof value === "string" && isRootPointer(value) ? base + value.slice(1) : rebase(value, base);
  }
  return result;
}

function isRootPointer(ref: string): boolean {
  return ref === "#" || (ref.startsWith("#/") && !/^#\/(?:\$defs|definitions)\//.test(ref));
}
