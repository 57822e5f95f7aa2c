import type { JSONSchema } from "../../src/index.js";

/**
 * Schemas as MCP servers write them, with the keywords providers differ on: `$ref`/`$defs`,
 * `additionalProperties`, `pattern`, `oneOf`, `const`, `$schema` (as the reference server's carry).
 */
export const refSchema: JSONSchema = {
  $schema: "https://json-schema.org/draft/2020-12/schema",
  type: "object",
  properties: {
    path: { type: "string", pattern: "^/[a-z0-9/_-]+$", description: "Absolute path" },
    owner: { $ref: "#/$defs/Person" },
    mode: {
      oneOf: [
        { type: "object", properties: { kind: { const: "read" } }, required: ["kind"], additionalProperties: false },
        {
          type: "object",
          properties: { kind: { const: "write" }, append: { type: "boolean" } },
          required: ["kind"],
          additionalProperties: false,
        },
      ],
    },
  },
  required: ["path", "owner", "mode"],
  additionalProperties: false,
  $defs: {
    Person: {
      type: "object",
      properties: { name: { type: "string" }, email: { type: "string", pattern: "^[^@]+@[^@]+$" } },
      required: ["name"],
      additionalProperties: false,
    },
  },
};

/** A recursive definition (a tree), as filesystem servers list directory trees. */
export const recursiveSchema: JSONSchema = {
  type: "object",
  properties: { root: { $ref: "#/definitions/Node" } },
  required: ["root"],
  definitions: {
    Node: {
      type: "object",
      properties: { name: { type: "string" }, children: { type: "array", items: { $ref: "#/definitions/Node" } } },
      required: ["name"],
    },
  },
};
