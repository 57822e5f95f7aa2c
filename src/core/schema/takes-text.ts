import type { JSONSchema } from "./json-schema.js";
import { isPlainObject, ownEntry } from "./json-schema.js";

/**
 * Whether an object schema's property takes a string (`type: "string"`, a type list or an
 * `anyOf`/`oneOf` branch with it, a string enum or const): a value written as text for it stays text.
 */
export function takesText(schema: JSONSchema | undefined, property: string): boolean {
  const properties = schema?.properties;
  return isPlainObject(properties) && acceptsString(ownEntry(properties, property));
}

function acceptsString(schema: unknown): boolean {
  if (!isPlainObject(schema)) return false;
  const { type } = schema;
  if (type === "string" || (Array.isArray(type) && type.includes("string"))) return true;
  if (typeof schema.const === "string") return true;
  if (Array.isArray(schema.enum) && schema.enum.some((member) => typeof member === "string")) return true;
  const branches = Array.isArray(schema.anyOf) ? schema.anyOf : Array.isArray(schema.oneOf) ? schema.oneOf : [];
  return branches.some(acceptsString);
}
