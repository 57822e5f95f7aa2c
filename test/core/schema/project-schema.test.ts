import fc from "fast-check";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { projectSchema, usesKeyword } from "../../../src/core/schema/project-schema.js";
import { validatorFor } from "../../../src/core/schema/validate.js";
import type { JSONSchema } from "../../../src/index.js";
import { connectEverythingServer } from "../../support/mcp-everything.js";
import { recursiveSchema, refSchema } from "../../support/mcp-schemas.js";

const geminiRefused = ["$ref", "$defs", "definitions", "additionalProperties", "$schema", "oneOf", "const"];

describe("projectSchema", () => {
  it("should send an MCP schema in Gemini's subset, naming each change, without touching the original", () => {
    const before = structuredClone(refSchema);
    const { schema, changes } = projectSchema(refSchema, "gemini");
    expect(refSchema).toEqual(before);
    for (const keyword of geminiRefused) expect(usesKeyword(schema, keyword)).toBe(false);
    expect((schema.properties as any).owner).toEqual({
      type: "object",
      properties: { name: { type: "string" }, email: { type: "string", pattern: "^[^@]+@[^@]+$" } },
      required: ["name"],
    });
    expect((schema.properties as any).mode.anyOf[0].properties.kind).toEqual({ enum: ["read"] });
    expect(changes).toEqual(
      expect.arrayContaining([
        "'$schema' left out",
        "'additionalProperties' left out",
        "'$ref' inlined ('$defs'/'definitions' left out)",
        "'oneOf' sent as 'anyOf'",
        "'const' sent as a one-value 'enum'",
      ]),
    );
  });

  it("should keep a property whose name is a keyword it leaves out", () => {
    const schema: JSONSchema = {
      type: "object",
      properties: { additionalProperties: { type: "string" }, pattern: { type: "string", pattern: "^a" } },
    };
    const projected = projectSchema(schema, "gemini", new Set(["pattern"])).schema;
    expect(Object.keys(projected.properties as object)).toEqual(["additionalProperties", "pattern"]);
    expect((projected.properties as any).pattern).toEqual({ type: "string" });
  });

  it("should cut a recursive $ref after a few levels, saying so", () => {
    const { schema, changes } = projectSchema(recursiveSchema, "gemini");
    expect(usesKeyword(schema, "$ref")).toBe(false);
    expect(changes.join()).toMatch(/recursive '\$ref' "#\/definitions\/Node" cut after 3 levels/);
    expect(validatorFor(schema)({ root: { name: "a", children: [{ name: "b", children: [] }] } }).success).toBe(true);
  });

  it("should leave a refused keyword out of any schema, and nothing else when no form is declared", () => {
    const { schema, changes } = projectSchema(refSchema, undefined, new Set(["pattern"]));
    expect(usesKeyword(schema, "pattern")).toBe(false);
    expect(usesKeyword(schema, "$ref")).toBe(true);
    expect(changes).toEqual(["'pattern' left out"]);
    expect(projectSchema(refSchema, undefined).schema).toBe(refSchema);
  });

  it("should inline refs and drop $schema only for the inline-refs form (Ollama)", () => {
    const { schema } = projectSchema(refSchema, "inline-refs");
    expect(usesKeyword(schema, "$ref")).toBe(false);
    expect(usesKeyword(schema, "$schema")).toBe(false);
    expect(usesKeyword(schema, "additionalProperties")).toBe(true);
    expect(usesKeyword(schema, "pattern")).toBe(true);
  });

  it("should accept every value the original schema accepts (it only loosens or inlines)", () => {
    const original = validatorFor(refSchema);
    const projected = validatorFor(projectSchema(refSchema, "gemini").schema);
    const value = fc.record({
      path: fc.stringMatching(/^\/[a-z0-9/_-]+$/),
      owner: fc.record({ name: fc.string(), email: fc.stringMatching(/^[^@]+@[^@]+$/) }, { requiredKeys: ["name"] }),
      mode: fc.oneof(
        fc.record({ kind: fc.constant("read") }),
        fc.record({ kind: fc.constant("write"), append: fc.boolean() }, { requiredKeys: ["kind"] }),
      ),
    });
    fc.assert(
      fc.property(value, (candidate) => {
        if (original(candidate).success) expect(projected(candidate).success).toBe(true);
      }),
    );
  });

  it("should never throw on hostile schemas, and never leave Gemini's refused keywords", () => {
    const keyword = fc.constantFrom(
      "$ref",
      "$defs",
      "additionalProperties",
      "oneOf",
      "const",
      "pattern",
      "type",
      "items",
    );
    const node = fc.letrec((tie) => ({
      schema: fc.dictionary(
        fc.oneof(keyword, fc.string()),
        fc.oneof(fc.string(), fc.integer(), fc.boolean(), tie("schema"), fc.array(tie("schema"), { maxLength: 3 })),
        { maxKeys: 5 },
      ),
    })).schema;
    fc.assert(
      fc.property(node, (schema) => {
        const { schema: projected } = projectSchema(schema as JSONSchema, "gemini");
        for (const refused of ["$ref", "additionalProperties", "oneOf", "$schema"]) {
          expect(usesKeyword(projected, refused)).toBe(false);
        }
      }),
    );
  });
});

describe("projectSchema over the reference MCP server's schemas", () => {
  let client: Client;
  beforeAll(async () => {
    client = await connectEverythingServer();
  }, 30_000);
  afterAll(async () => {
    await client?.close();
  });

  it("should leave out only $schema (and additionalProperties) for Gemini, keeping what each tool asks", async () => {
    const { tools } = await client.listTools();
    for (const tool of tools) {
      const { schema, changes } = projectSchema(tool.inputSchema as JSONSchema, "gemini");
      const { $schema: _schema, additionalProperties: _additional, ...rest } = tool.inputSchema as JSONSchema;
      expect(schema).toEqual(rest);
      expect(changes).toContain("'$schema' left out");
    }
  });
});
