import { describe, expect, it } from "vitest";
import { z } from "zod";
import { z as z3 } from "zod/v3";
import { defineTool } from "../../src/index.js";

describe("defineTool", () => {
  it("should convert a zod v4 schema with zod's own conversion, descriptions included", () => {
    const tool = defineTool({
      name: "lookup",
      inputSchema: z.object({ id: z.string().describe("incident id"), limit: z.number().int().optional() }),
    });
    expect(tool.parameters).toMatchObject({
      type: "object",
      properties: { id: { type: "string", description: "incident id" }, limit: { type: "integer" } },
      required: ["id"],
    });
    expect(tool.parameters).not.toHaveProperty("$schema");
  });

  it("should convert a zod v3 schema through zod-to-json-schema", () => {
    const tool = defineTool({ name: "lookup", inputSchema: z3.object({ id: z3.string(), n: z3.number().optional() }) });
    expect(tool.parameters).toMatchObject({
      type: "object",
      properties: { id: { type: "string" }, n: { type: "number" } },
      required: ["id"],
    });
  });

  it("should use a JSON Schema object as it is", () => {
    const schema = { type: "object", properties: { q: { type: "string" } }, required: ["q"] };
    // Its content unchanged (keelson keeps its own copy, so a later change in place cannot split wire and validation).
    expect(defineTool({ name: "search", inputSchema: schema }).parameters).toEqual(schema);
  });

  it("should never let an empty schema through for something that is not a zod v3 schema", () => {
    const fakeV3 = { _def: { typeName: "Nothing" }, safeParse: () => ({ success: true }) };
    expect(() => defineTool({ name: "broken", inputSchema: fakeV3 })).toThrow(/empty JSON Schema/);
  });

  it("should refuse a description that is not a string, and take a null one as none", () => {
    const inputSchema = { type: "object", properties: {} };
    expect(() => defineTool({ name: "count", description: 42 as unknown as string, inputSchema })).toThrow(
      new TypeError("Tool 'count': description must be a string, got number 42 (providers reject anything else)."),
    );
    expect(() =>
      defineTool({ name: "count", description: { text: "Counts" } as unknown as string, inputSchema }),
    ).toThrow(/got an object/);
    const tool = defineTool({ name: "count", description: null as unknown as string, inputSchema });
    expect(tool).not.toHaveProperty("description");
  });

  it("should reject invalid names and non-object schemas with a TypeError saying what to do", () => {
    expect(() => defineTool({ name: "has space", inputSchema: z.object({}) })).toThrow(TypeError);
    expect(() => defineTool({ name: "has space", inputSchema: z.object({}) })).toThrow(/letters, digits/);
    expect(() => defineTool({ name: "n", inputSchema: z.string() })).toThrow(/must describe an object/);
    expect(() => defineTool({ name: "n", inputSchema: "nope" as never })).toThrow(/zod schema or a JSON Schema/);
  });

  it("should refuse an invalid JSON Schema with a TypeError naming the tool, the fault and the fix", () => {
    const inputSchema = {
      type: "object",
      properties: { filter: { type: "object", properties: { status: { type: "strng" } } } },
    };
    let caught: unknown;
    try {
      defineTool({ name: "lookup_incident", inputSchema });
    } catch (error) {
      caught = error;
    }
    expect(caught).toBeInstanceOf(TypeError);
    const { message } = caught as TypeError;
    expect(message).toMatch(/^Tool 'lookup_incident': its inputSchema is not a valid JSON Schema/);
    expect(message).toContain("/properties/filter/properties/status/type");
    expect(message).toMatch(/Fix the schema .*or pass a zod schema/);
  });

  it("should refuse an execute that is not a function, naming the tool", () => {
    expect(() => defineTool({ name: "run", inputSchema: z.object({}), execute: "go" as never })).toThrow(
      /^Tool 'run': execute must be a function/,
    );
  });

  it("should return the same tool when defined twice", () => {
    const tool = defineTool({ name: "t", inputSchema: z.object({}) });
    expect(defineTool(tool)).toBe(tool);
  });
});
