import type { JSONSchema } from "./json-schema.js";
import { isPlainObject } from "./json-schema.js";

/** A zod v4 schema (classic or mini), seen structurally so that no zod copy is imported. */
export interface ZodV4Like {
  _zod: { def: unknown };
  "~standard"?: {
    validate(value: unknown): unknown;
    jsonSchema?: { input(options: { target: string }): Record<string, unknown> };
  };
  safeParse?(value: unknown): { success: boolean; data?: unknown; error?: unknown };
}

/** A zod v3 schema (`zod/v3` or zod 3.x), seen structurally. */
export interface ZodV3Like {
  _def: unknown;
  safeParse(value: unknown): { success: boolean; data?: unknown; error?: unknown };
}

/** What a tool's `inputSchema` or a structured output's `schema` may be. */
export type SchemaInput = ZodV4Like | ZodV3Like | JSONSchema;

export type SchemaKind = "zod-v4" | "zod-v3" | "json-schema";

export function schemaKind(schema: unknown): SchemaKind {
  if (schema !== null && typeof schema === "object") {
    if ("_zod" in schema) return "zod-v4";
    if ("_def" in schema && typeof (schema as ZodV3Like).safeParse === "function") return "zod-v3";
    if (isPlainObject(schema)) {
      if (isZodShape(schema)) {
        throw new TypeError(
          "Expected a zod schema or a JSON Schema object, got an object of zod schemas (a zod shape). " +
            "Wrap it in z.object({...}).",
        );
      }
      return "json-schema";
    }
  }
  throw new TypeError(
    `Expected a zod schema or a JSON Schema object, got ${schema === null ? "null" : typeof schema}. ` +
      "Pass z.object({...}) or a JSON Schema such as { type: 'object', properties: {...} }.",
  );
}

/** `{ city: z.string() }`: what z.object takes, easily passed in its place (the MCP SDK takes shapes). */
function isZodShape(schema: Record<string, unknown>): boolean {
  for (const key in schema) {
    const member = schema[key];
    if (member !== null && typeof member === "object" && ("_zod" in member || "_def" in member)) return true;
  }
  return false;
}
