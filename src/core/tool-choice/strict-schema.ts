import type { JSONSchema } from "../schema/json-schema.js";
import { isPlainObject, ownEntry } from "../schema/json-schema.js";
import { inlineRefs } from "./inline-refs.js";

/**
 * The strict variant some providers demand (OpenAI `strict: true`): every object lists all its
 * properties as required and allows no others; a property that was optional may be `null`, which
 * `dropNullOptionals` removes again before validation.
 */
export function strictSchema(schema: JSONSchema): JSONSchema {
  return walk(schema) as JSONSchema;
}

function walk(node: unknown): unknown {
  if (Array.isArray(node)) return node.map(walk);
  if (!isPlainObject(node)) return node;
  const result: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(node)) {
    result[key] = key === "properties" && isPlainObject(value) ? value : walk(value);
  }
  if (isPlainObject(node.properties)) {
    const required = new Set(Array.isArray(node.required) ? (node.required as string[]) : []);
    const properties: Record<string, unknown> = {};
    for (const [key, value] of Object.entries(node.properties)) {
      const strictValue = walk(value);
      properties[key] = required.has(key) ? strictValue : { anyOf: [strictValue, { type: "null" }] };
    }
    result.properties = properties;
    result.required = Object.keys(properties);
    result.additionalProperties = false;
  }
  return result;
}

/**
 * Removes `null` values of properties the original schema did not require: at every depth, through
 * arrays, `$ref`s and the branch of an `anyOf`/`oneOf` that fits (a nullable object, say), since the
 * strict variant made each of them nullable.
 */
export function dropNullOptionals(value: unknown, schema: JSONSchema): unknown {
  return drop(value, inlinedOnce(schema));
}

const inlined = new WeakMap<JSONSchema, JSONSchema>();

function inlinedOnce(schema: JSONSchema): JSONSchema {
  let result = inlined.get(schema);
  if (result === undefined) {
    result = inlineRefs(schema);
    inlined.set(schema, result);
  }
  return result;
}

function drop(value: unknown, schema: Record<string, unknown>): unknown {
  const branch = branchFor(value, schema);
  if (branch !== schema) return branch === undefined ? value : drop(value, branch);
  if (Array.isArray(value)) {
    const prefix = Array.isArray(schema.prefixItems) ? schema.prefixItems : [];
    return value.map((item, index) => {
      const itemSchema = index < prefix.length ? prefix[index] : schema.items;
      return isPlainObject(itemSchema) ? drop(item, itemSchema) : item;
    });
  }
  if (!isPlainObject(value) || !isPlainObject(schema.properties)) return value;
  const required = new Set(Array.isArray(schema.required) ? (schema.required as string[]) : []);
  const result: Record<string, unknown> = {};
  for (const [key, member] of Object.entries(value)) {
    if (member === null && !required.has(key)) continue;
    const memberSchema = ownEntry(schema.properties, key);
    result[key] = isPlainObject(memberSchema) ? drop(member, memberSchema) : member;
  }
  return result;
}

/**
 * The schema to read a value against: the schema itself when it describes objects or arrays
 * directly; else the one `anyOf`/`oneOf` branch for the value's kind (object or array); else
 * undefined (nothing to drop).
 */
function branchFor(value: unknown, schema: Record<string, unknown>): Record<string, unknown> | undefined {
  if (isPlainObject(schema.properties) || schema.items !== undefined || schema.prefixItems !== undefined) return schema;
  const branches = Array.isArray(schema.anyOf) ? schema.anyOf : Array.isArray(schema.oneOf) ? schema.oneOf : undefined;
  if (branches === undefined || value === null || typeof value !== "object") return undefined;
  const key = Array.isArray(value) ? "items" : "properties";
  const fitting = branches.filter((branch) => isPlainObject(branch) && branch[key] !== undefined);
  return fitting.length === 1 ? (fitting[0] as Record<string, unknown>) : undefined;
}
