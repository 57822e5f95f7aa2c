import type { JSONSchema } from "../schema/json-schema.js";
import { isPlainObject } from "../schema/json-schema.js";

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
