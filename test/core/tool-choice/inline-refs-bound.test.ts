import { Ajv } from "ajv";
import { describe, expect, it } from "vitest";
import type { JSONSchema } from "../../../src/index.js";
import { defineTool, toolUnionSchema } from "../../../src/index.js";
import { ScriptedChatModel, toolCallStep } from "../../../src/testing/index.js";
import { callModes, settleCall, user } from "../../support/run-modes.js";

/** `$defs` where each level refers twice to the next: small on the wire, 2^levels leaves inlined. */
function doubling(levels: number): JSONSchema {
  const $defs: Record<string, unknown> = {
    [`level${levels}`]: { type: "string", description: "a leaf of the doubling schema, with some words in it" },
  };
  for (let level = levels - 1; level >= 0; level--) {
    const next = { $ref: `#/$defs/level${level + 1}` };
    $defs[`level${level}`] = { type: "object", properties: { left: next, right: next }, required: ["left", "right"] };
  }
  return { type: "object", properties: { tree: { $ref: "#/$defs/level0" } }, required: ["tree"], $defs };
}

function valueOf(levels: number): unknown {
  return levels === 0 ? "leaf" : { left: valueOf(levels - 1), right: valueOf(levels - 1) };
}

describe("toolUnionSchema with $refs that multiply", () => {
  it("should refuse an 18-level doubling schema (a few KB) with a TypeError naming the tool, before building it", () => {
    const schema = doubling(18);
    expect(JSON.stringify(schema).length).toBeLessThan(4_000);
    const tool = defineTool({ name: "grow_tree", inputSchema: schema });
    const before = process.memoryUsage().heapUsed;
    expect(() => toolUnionSchema([tool])).toThrow(/grow_tree.*1000000 characters/s);
    // Building the 15 MB schema took hundreds of MB of heap; refusing it takes a few.
    expect(process.memoryUsage().heapUsed - before).toBeLessThan(64 * 1024 * 1024);
  });

  it("should inline a 12-level doubling schema (about 670 KB inlined), under the bound", () => {
    const union = toolUnionSchema([defineTool({ name: "grow_tree", inputSchema: doubling(12) })]);
    const text = JSON.stringify(union);
    expect(text).not.toContain("$ref");
    expect(text.length).toBeGreaterThan(600_000);
  });

  it.each([1, 4, 8])("should inline a %i-level doubling schema whole, each copy its own object", (levels) => {
    const tool = defineTool({ name: "grow_tree", inputSchema: doubling(levels) });
    const union = toolUnionSchema([tool]);
    const text = JSON.stringify(union);
    expect(text).not.toContain("$ref");
    const validate = new Ajv({ strict: false }).compile(union);
    expect(validate({ name: "grow_tree", parameters: { tree: valueOf(levels) } })).toBe(true);
    expect(validate({ name: "grow_tree", parameters: { tree: valueOf(levels + 1) } })).toBe(false);
    if (levels > 1) {
      const tree = (union as any).properties.parameters.properties.tree;
      expect(tree.properties.left).not.toBe(tree.properties.right);
    }
  });

  it("should still cut a recursive definition to {} where it recurs", () => {
    const schema: JSONSchema = {
      type: "object",
      properties: { node: { $ref: "#/$defs/node" } },
      $defs: { node: { type: "object", properties: { next: { $ref: "#/$defs/node" }, label: { type: "string" } } } },
    };
    const union = toolUnionSchema([defineTool({ name: "list", inputSchema: schema })]) as any;
    expect(union.properties.parameters.properties.node).toEqual({
      type: "object",
      properties: { next: {}, label: { type: "string" } },
    });
  });

  describe.each(callModes)("through %s", (mode) => {
    it("should fail a forced call on the doubling schema at once, with no request sent", async () => {
      const tool = defineTool({ name: "grow_tree", inputSchema: doubling(18) });
      const model = new ScriptedChatModel([toolCallStep("grow_tree", { tree: "leaf" })], {
        toolChoiceSupport: ["auto", "none"],
      });
      const started = Date.now();
      const { error } = await settleCall(
        model,
        { messages: [user("grow")], tools: [tool], toolChoice: "required" },
        mode,
      );
      expect(error).toBeInstanceOf(TypeError);
      expect(error?.message).toContain("'grow_tree'");
      expect(model.calls).toHaveLength(0);
      expect(Date.now() - started).toBeLessThan(2_000);
    });
  });
});
