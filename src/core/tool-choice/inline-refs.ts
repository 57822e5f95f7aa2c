import type { JSONSchema } from "../schema/json-schema.js";
import { isPlainObject } from "../schema/json-schema.js";

/**
 * The largest schema inlining may build, in JSON characters (about 1 MB). A few kilobytes of `$defs`
 * that refer to each other twice per level double at every level: 18 levels make 15 MB, sent on
 * every forced call. Past this the schema is refused, before it is built.
 */
export const maxInlinedSchemaLength = 1_000_000;

/** Where an inlining stands: the definitions, what each resolved to, and the room left. */
interface Inlining {
  definitions: Record<string, unknown>;
  /** Per definition and the definitions being resolved around it, the result and its JSON length. */
  resolved: Map<string, { value: unknown; length: number }>;
  length: number;
  name: string;
}

/**
 * Replaces local `$ref`s (`#/$defs/…`, `#/definitions/…`) with the schema they point to, since many
 * providers do not dereference. A recursive reference cannot be inlined and becomes `{}` (any value)
 * at the point where it would recur. That includes `#` (zod's recursion back to the root): once the
 * schema is moved into another one (the tool union), `#` would point at the new root.
 *
 * Each definition is resolved once per context (memo), and the result's size is counted as it is
 * built: a schema that would inline past `maxInlinedSchemaLength` is a TypeError naming `name`
 * (the tool), thrown as soon as the count passes it.
 */
export function inlineRefs(schema: JSONSchema, name = "a tool"): JSONSchema {
  const definitions = { ...asRecord(schema.definitions), ...asRecord(schema.$defs) };
  if (Object.keys(definitions).length === 0 && !JSON.stringify(schema).includes('"$ref"')) return schema;
  const { $defs: _defs, definitions: _definitions, ...root } = schema;
  const inlining: Inlining = { definitions, resolved: new Map(), length: 0, name };
  return walk(root, inlining, []).value as JSONSchema;
}

interface Walked {
  value: unknown;
  /** Its length as JSON (close enough: keys and strings counted without escapes). */
  length: number;
}

function walk(node: unknown, inlining: Inlining, stack: readonly string[]): Walked {
  if (Array.isArray(node)) {
    let length = spend(inlining, 2 + node.length);
    const value = node.map((item) => {
      const walked = walk(item, inlining, stack);
      length += walked.length;
      return walked.value;
    });
    return { value, length };
  }
  if (!isPlainObject(node)) {
    return { value: node, length: spend(inlining, typeof node === "string" ? node.length + 2 : String(node).length) };
  }
  const ref = node.$ref;
  if (ref === "#") {
    // Everything is inside the root, so a reference to it always recurs.
    const { $ref: _ref, ...siblings } = node;
    return walk(siblings, inlining, stack);
  }
  if (typeof ref === "string") {
    const name = /^#\/(?:\$defs|definitions)\/(.+)$/.exec(ref)?.[1];
    const key = name === undefined ? undefined : decodeURIComponent(name);
    const target = key === undefined ? undefined : inlining.definitions[key];
    if (key !== undefined && target !== undefined) {
      if (stack.includes(key)) return { value: {}, length: spend(inlining, 2) };
      const { $ref: _ref, ...siblings } = node;
      const resolved = resolve(key, target, inlining, stack);
      const rest = walk(siblings, inlining, stack);
      return {
        value: { ...(resolved.value as Record<string, unknown>), ...(rest.value as Record<string, unknown>) },
        length: resolved.length + rest.length,
      };
    }
  }
  const value: Record<string, unknown> = {};
  let length = spend(inlining, 2);
  for (const [key, child] of Object.entries(node)) {
    length += spend(inlining, key.length + 4);
    const walked = walk(child, inlining, stack);
    value[key] = walked.value;
    length += walked.length;
  }
  return { value, length };
}

/**
 * A definition resolved in the context of the ones around it: built the first time, copied after
 * (the copy counted whole first, so a schema that doubles is refused before the copies are made).
 */
function resolve(key: string, target: unknown, inlining: Inlining, stack: readonly string[]): Walked {
  const memoKey = JSON.stringify([key, ...stack]);
  const known = inlining.resolved.get(memoKey);
  if (known) {
    spend(inlining, known.length);
    return { value: structuredClone(known.value), length: known.length };
  }
  const resolved = walk(target, inlining, [...stack, key]);
  inlining.resolved.set(memoKey, resolved);
  return resolved;
}

/** Counts `length` more characters built, refusing the schema past the limit; returns `length`. */
function spend(inlining: Inlining, length: number): number {
  inlining.length += length;
  if (inlining.length > maxInlinedSchemaLength) {
    throw new TypeError(
      `The JSON Schema of ${inlining.name} grows past ${maxInlinedSchemaLength} characters once its $refs are inlined ` +
        "(its definitions refer to each other many times over), and forced tool calls send it inlined. " +
        "Simplify the schema (fewer nested references to the same definitions), or, if the provider honours " +
        "tool_choice natively, say so with the toolChoiceSupport option.",
    );
  }
  return length;
}

function asRecord(value: unknown): Record<string, unknown> {
  return isPlainObject(value) ? value : {};
}
