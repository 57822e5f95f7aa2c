import type { JSONSchema } from "../schema/json-schema.js";
import { isPlainObject, ownEntry } from "../schema/json-schema.js";

type Schema = Record<string, unknown>;

/**
 * Removes `null` values of properties the original schema did not require, since the strict
 * variant (`strictSchema`) made each of them nullable: at every depth, through arrays and tuples,
 * record values, local `$ref`s (a recursive one too: it is followed as far as the value goes) and
 * the branch of an `anyOf`/`oneOf` the value takes (a nullable object, a discriminated union).
 */
export function dropNullOptionals(value: unknown, schema: JSONSchema): unknown {
  return drop(value, schema, schema);
}

function drop(value: unknown, node: Schema, root: Schema): unknown {
  const schema = resolveRef(node, root);
  if (schema === undefined) return value;
  const branch = branchFor(value, schema, root);
  if (branch !== schema) return branch === undefined ? value : drop(value, branch, root);
  if (Array.isArray(value)) return value.map((item, index) => dropIn(item, itemSchema(schema, index), root));
  if (!isPlainObject(value)) return value;
  const properties = isPlainObject(schema.properties) ? schema.properties : {};
  const required = new Set(Array.isArray(schema.required) ? (schema.required as string[]) : []);
  const result: Record<string, unknown> = {};
  for (const [key, member] of Object.entries(value)) {
    const memberSchema = ownEntry(properties, key);
    if (memberSchema === undefined) {
      // A record's value (`additionalProperties`): no property strict mode made nullable.
      result[key] = dropIn(member, schema.additionalProperties, root);
      continue;
    }
    if (member === null && !required.has(key)) continue;
    result[key] = dropIn(member, memberSchema, root);
  }
  return result;
}

function dropIn(value: unknown, schema: unknown, root: Schema): unknown {
  return isPlainObject(schema) ? drop(value, schema, root) : value;
}

/** An array item's schema: 2020-12 `prefixItems` then `items`; draft-07 `items: [...]` then `additionalItems`. */
function itemSchema(schema: Schema, index: number): unknown {
  if (Array.isArray(schema.prefixItems))
    return index < schema.prefixItems.length ? schema.prefixItems[index] : schema.items;
  if (Array.isArray(schema.items)) return index < schema.items.length ? schema.items[index] : schema.additionalItems;
  return schema.items;
}

/** A schema with its local `$ref` followed (`#`, `#/$defs/…`, any `#/…` pointer), siblings kept; undefined when it leads nowhere. */
function resolveRef(node: Schema, root: Schema): Schema | undefined {
  let schema = node;
  for (let hops = 0; typeof schema.$ref === "string"; hops++) {
    const target = hops < maxHops ? pointerTarget(schema.$ref, root) : undefined;
    if (!isPlainObject(target)) return undefined;
    const { $ref: _ref, ...siblings } = schema;
    schema = { ...target, ...siblings };
  }
  return schema;
}

const maxHops = 16;

function pointerTarget(ref: string, root: Schema): unknown {
  if (ref !== "#" && !ref.startsWith("#/")) return undefined;
  let target: unknown = root;
  for (const token of ref
    .slice(2)
    .split("/")
    .filter((part) => part !== "")) {
    const key = decodeURIComponent(token).replace(/~1/g, "/").replace(/~0/g, "~");
    target = Array.isArray(target) ? target[Number(key)] : isPlainObject(target) ? ownEntry(target, key) : undefined;
  }
  return target;
}

/**
 * The schema to read a value against: the schema itself when it describes objects or arrays
 * directly; else the one `anyOf`/`oneOf` branch for the value's kind, narrowed for an object by
 * its keys and the `const`/`enum` values of its properties (a discriminated union's tag); else
 * undefined (nothing to drop).
 */
function branchFor(value: unknown, schema: Schema, root: Schema): Schema | undefined {
  if (
    isPlainObject(schema.properties) ||
    isPlainObject(schema.additionalProperties) ||
    schema.items !== undefined ||
    schema.prefixItems !== undefined
  ) {
    return schema;
  }
  const branches = Array.isArray(schema.anyOf) ? schema.anyOf : Array.isArray(schema.oneOf) ? schema.oneOf : undefined;
  if (branches === undefined || value === null || typeof value !== "object") return undefined;
  const describesValue = (branch: Schema) =>
    Array.isArray(value)
      ? branch.items !== undefined || branch.prefixItems !== undefined
      : isPlainObject(branch.properties) || isPlainObject(branch.additionalProperties);
  let fitting: Schema[] = [];
  for (const branch of branches) {
    const resolved = isPlainObject(branch) ? resolveRef(branch, root) : undefined;
    if (resolved !== undefined && describesValue(resolved)) fitting.push(resolved);
  }
  if (fitting.length > 1 && isPlainObject(value)) fitting = fitting.filter((branch) => takesObject(value, branch));
  return fitting.length === 1 ? fitting[0] : undefined;
}

/**
 * Whether an object could be of this branch: strict mode closed it and required all its properties,
 * so the reply lists each of them and nothing else, with a tag (`const`/`enum`) the branch allows.
 */
function takesObject(value: Record<string, unknown>, branch: Schema): boolean {
  if (!isPlainObject(branch.properties)) return true;
  const properties = branch.properties;
  const required = Array.isArray(branch.required) ? (branch.required as unknown[]) : [];
  if (required.some((key) => typeof key === "string" && !Object.hasOwn(value, key))) return false;
  return Object.entries(value).every(([key, member]) => {
    const property = ownEntry(properties, key);
    if (!isPlainObject(property)) return false;
    if ("const" in property && property.const !== member) return false;
    return !Array.isArray(property.enum) || property.enum.includes(member);
  });
}
