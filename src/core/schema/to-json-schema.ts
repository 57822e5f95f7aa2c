import { lazyRequire } from "../loading/lazy-require.js";
import type { JSONSchema } from "./json-schema.js";
import type { SchemaInput, ZodV3Like, ZodV4Like } from "./schema-input.js";
import { schemaKind } from "./schema-input.js";

type ZodToJsonSchema = (schema: unknown, options: Record<string, unknown>) => JSONSchema;
const loadZodToJsonSchema = lazyRequire<{ zodToJsonSchema: ZodToJsonSchema }>(
  "zod-to-json-schema",
  "converting zod v3 schemas to JSON Schema",
);

const converted = new WeakMap<object, JSONSchema>();

/**
 * Converts a schema to JSON Schema once; the result is cached per schema object, because this sits
 * on the hot path of every call that carries tools. A JSON Schema object is copied the first time
 * it is seen, and that copy is both sent and validated against: a schema changed in place later is
 * not read again (pass a new schema object to change it), so the provider is never told one schema
 * while the reply is checked against another.
 */
export function toJSONSchema(schema: SchemaInput): JSONSchema {
  const cached = converted.get(schema);
  if (cached) return cached;
  const result = convert(schema);
  converted.set(schema, result);
  return result;
}

function convert(schema: SchemaInput): JSONSchema {
  switch (schemaKind(schema)) {
    case "json-schema":
      return snapshot(schema as JSONSchema);
    case "zod-v4":
      return fromZodV4(schema as ZodV4Like);
    case "zod-v3":
      return fromZodV3(schema as ZodV3Like);
  }
}

function snapshot(schema: JSONSchema): JSONSchema {
  try {
    return structuredClone(schema);
  } catch {
    // Something no copy can carry (a function, say): used as it is.
    return schema;
  }
}

function fromZodV4(schema: ZodV4Like): JSONSchema {
  // zod's own conversion, reached through the schema itself (Standard JSON Schema, zod >= 4.2),
  // so keelson never loads a second copy of zod.
  const converter = schema["~standard"]?.jsonSchema;
  if (!converter) {
    throw new TypeError(
      "This zod v4 schema cannot convert itself to JSON Schema (zod/mini, or zod older than 4.2). " +
        "Upgrade zod, or pass the JSON Schema instead: defineTool({ inputSchema: z.toJSONSchema(schema) }).",
    );
  }
  const { $schema: _ignored, ...json } = converter.input({ target: "draft-07" });
  return json;
}

function fromZodV3(schema: ZodV3Like): JSONSchema {
  const { zodToJsonSchema } = loadZodToJsonSchema();
  const { $schema: _ignored, ...json } = zodToJsonSchema(schema, {
    target: "jsonSchema7",
    $refStrategy: "none",
  });
  // zod-to-json-schema answers {} for anything it does not understand (a zod v4 schema, say):
  // an empty schema must never reach a provider.
  if (Object.keys(json).length === 0) {
    throw new TypeError(
      "zod-to-json-schema produced an empty JSON Schema for this zod v3 schema. " +
        "Check that it is a zod schema from zod 3.x or 'zod/v3', or pass a JSON Schema object.",
    );
  }
  return json;
}
