import { describe, expect, it } from "vitest";
import { z } from "zod";
import { z as z3 } from "zod/v3";
import { defineTool } from "../../../src/index.js";
import { ScriptedChatModel, textStep } from "../../../src/testing/index.js";
import { callModes, runCall, user } from "../../support/run-modes.js";

// A zod *shape* ({ city: z.string() }) is the most common slip when writing a tool (the MCP SDK's
// server.tool() takes exactly that). It is a plain object, but not a JSON Schema: sent as it is,
// zod's internals reach the provider and any arguments pass validation.
describe("defineTool with a zod shape instead of a schema", () => {
  it.each([
    ["zod v4", { city: z.string() }],
    ["zod v3", { city: z3.string() }],
  ])("should refuse a %s shape with a TypeError that says to wrap it in z.object", (_name, shape) => {
    expect(() => defineTool({ name: "weather", inputSchema: shape as never })).toThrow(TypeError);
    expect(() => defineTool({ name: "weather", inputSchema: shape as never })).toThrow(/z\.object/);
  });
});

describe("createStructure with a zod shape instead of a schema", () => {
  describe.each(callModes)("through %s", (mode) => {
    it("should refuse the shape before any request is sent", async () => {
      const model = new ScriptedChatModel([textStep('{"city":42}')]);
      await expect(
        runCall(model, { messages: [user("Weather?")], responseFormat: { city: z.string() } as never }, mode),
      ).rejects.toThrow(/z\.object/);
      expect(model.calls).toHaveLength(0);
    });
  });
});
