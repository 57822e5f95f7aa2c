import { describe, expect, it } from "vitest";
import { ToolCallError, type ToolDefinition } from "../../../src/index.js";
import { ScriptedChatModel, toolCallStep } from "../../../src/testing/index.js";
import { validatorFor } from "../../../src/core/schema/validate.js";
import { callModes, runCall, user } from "../../support/run-modes.js";

// An MCP client lists the server's tools afresh (new objects) for each turn; their schemas often carry an $id.
const listTools = (): ToolDefinition[] => [
  {
    name: "search",
    description: "Search the docs",
    inputSchema: {
      $id: "https://example.com/schemas/search-input",
      type: "object",
      properties: { query: { type: "string" } },
      required: ["query"],
    },
  },
];

describe("validatorFor (JSON Schema)", () => {
  describe.each(callModes)("through %s", (mode) => {
    it("should validate a schema with an $id on every call, not only the first", async () => {
      const model = new ScriptedChatModel([
        toolCallStep("search", { query: "a" }),
        toolCallStep("search", { query: "b" }),
      ]);
      expect(
        (await runCall(model, { messages: [user("one")], tools: listTools() }, mode)).output.toolCalls[0]!.args,
      ).toEqual({ query: "a" });
      expect(
        (await runCall(model, { messages: [user("two")], tools: listTools() }, mode)).output.toolCalls[0]!.args,
      ).toEqual({ query: "b" });
    });
  });

  // A tree of folders, as an MCP server may describe one: the schema recurses to its root with "#".
  it("should validate a JSON Schema that recurses to its root with '#', at every depth", () => {
    const validate = validatorFor({
      type: "object",
      properties: { name: { type: "string" }, children: { type: "array", items: { $ref: "#" } } },
      required: ["name"],
    });
    expect(validate({ name: "root", children: [{ name: "a", children: [{ name: "b" }] }] }).success).toBe(true);
    const deep = validate({ name: "root", children: [{ name: "a", children: [{ children: [] }] }] });
    expect(deep.success).toBe(false);
    if (!deep.success) expect(deep.issues.join("; ")).toMatch(/name/);
  });

  it("should keep two schemas that share an $id apart", () => {
    const first = validatorFor({ $id: "https://example.com/s", type: "object", properties: { a: { type: "string" } } });
    const second = validatorFor({
      $id: "https://example.com/s",
      type: "object",
      properties: { a: { type: "number" } },
    });
    expect(first({ a: "x" }).success).toBe(true);
    expect(second({ a: 1 }).success).toBe(true);
    expect(second({ a: "x" }).success).toBe(false);
  });

  it("should name the unexpected property and the allowed values in its issues", () => {
    const validate = validatorFor({
      type: "object",
      properties: { unit: { type: "string", enum: ["celsius", "fahrenheit"] } },
      additionalProperties: false,
    });
    const extra = validate({ unit: "celsius", city: "Oslo" });
    expect(extra.success).toBe(false);
    expect(extra.success ? [] : extra.issues).toEqual([expect.stringContaining("city")]);
    const wrong = validate({ unit: "kelvin" });
    expect(wrong.success ? [] : wrong.issues).toEqual([expect.stringMatching(/celsius.*fahrenheit/)]);
  });

  it("should validate a draft 2020-12 schema (an MCP tool's default dialect) by 2020-12 rules", () => {
    const validate = validatorFor({
      $schema: "https://json-schema.org/draft/2020-12/schema",
      type: "object",
      properties: { point: { type: "array", prefixItems: [{ type: "number" }, { type: "number" }], items: false } },
      required: ["point"],
    });
    expect(validate({ point: [1, 2] }).success).toBe(true);
    expect(validate({ point: [1, 2, 3] }).success).toBe(false);
  });

  describe.each(callModes)("a tool call checked against a 2020-12 schema, through %s", (mode) => {
    it("should accept arguments that match the schema", async () => {
      const plot: ToolDefinition = {
        name: "plot",
        inputSchema: {
          $schema: "https://json-schema.org/draft/2020-12/schema",
          type: "object",
          properties: { point: { type: "array", prefixItems: [{ type: "number" }, { type: "number" }], items: false } },
          required: ["point"],
        },
      };
      const model = new ScriptedChatModel([toolCallStep("plot", { point: [1, 2] })], { maxRepairAttempts: 0 });
      const result = await runCall(model, { messages: [user("plot")], tools: [plot] }, mode).catch(
        (error: unknown) => error,
      );
      expect(ToolCallError.isInstance(result)).toBe(false);
    });
  });
});
