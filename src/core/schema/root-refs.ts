import type { JSONSchema } from "./json-schema.js";
import { isPlainObject } from "./json-schema.js";

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
    result[key] =
      key === "$ref" && typeof value === "string" && isRootPointer(value) ? base + value.slice(1) : rebase(value, base);
  }
  return result;
}

function isRootPointer(ref: string): boolean {
  return ref === "#" || (ref.startsWith("#/") && !/^#\/(?:\$defs|definitions)\//.test(ref));
}

/**
 * A schema that refers to its own root, itself or through a definition, with its body moved into
 * `$defs` under `name` (or `name1`, … when taken) and every root reference re-pointed there; the
 * root becomes a `$ref` to it, the definitions beside it. Undefined for a schema that does not:
 * wherever such a schema moves (under a wrapper), or where `#` cannot be resolved (Ajv without
 * its root registered), the references still find it.
 */
export function rootAsDefinition(
  schema: JSONSchema,
  name: string,
): { ref: string; $defs: Record<string, unknown>; definitions: unknown } | undefined {
  const { $defs, definitions, ...body } = schema;
  if (!refersToRoot(body) && !refersToRoot($defs) && !refersToRoot(definitions)) return undefined;
  const ownDefs = isPlainObject($defs) ? $defs : {};
  let free = name;
  for (let index = 1; Object.hasOwn(ownDefs, free); index++) free = `${name}${index}`;
  const ref = `#/$defs/${free}`;
  const rebased = (value: unknown) => (isPlainObject(value) ? rebaseRootRefs(value as JSONSchema, ref) : value);
  return {
    ref,
    $defs: { ...(rebased(ownDefs) as Record<string, unknown>), [free]: rebaseRootRefs(body, ref) },
    definitions: rebased(definitions),
  };
}
