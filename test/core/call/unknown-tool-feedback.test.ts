import { describe, expect, it } from "vitest";
import { z } from "zod";
import { defineTool, type ToolChoiceMode } from "../../../src/index.js";
import { ScriptedChatModel, toolCallStep } from "../../../src/testing/index.js";
import { callModes, settleCall, user } from "../../support/run-modes.js";

const weather = defineTool({ name: "weather", inputSchema: z.object({ city: z.string() }) });
const deleteAll = defineTool({ name: "delete_all", inputSchema: z.object({}) });
const tools = [weather, deleteAll];

describe("the feedback for a call to an unknown tool", () => {
  describe.each(callModes)("through %s", (mode) => {
    it.each<[string, ToolChoiceMode[]]>([
      ["native", ["auto", "none", "required", "single"]],
      ["emulated", ["auto", "required"]],
    ])("should offer only the forced tool in single mode (%s rung)", async (_rung, support) => {
      const model = new ScriptedChatModel([toolCallStep("get_weather", { city: "Oslo" })], {
        toolChoiceSupport: support,
        maxRepairAttempts: 0,
      });
      const { error } = await settleCall(model, { messages: [user("Weather?")], tools, toolChoice: weather }, mode);
      expect(error).toMatchObject({ name: "ToolCallError", kind: "unknown-tool" });
      // The model is told which tool to call: never one it may not call in this reply.
      expect((error as unknown as { feedback: string }).feedback).toMatch(/weather/);
      expect((error as unknown as { feedback: string }).feedback).not.toMatch(/delete_all/);
    });

    it("should offer no tool under toolChoice none", async () => {
      const model = new ScriptedChatModel([toolCallStep("get_weather", { city: "Oslo" })], { maxRepairAttempts: 0 });
      const { error } = await settleCall(model, { messages: [user("Weather?")], tools, toolChoice: "none" }, mode);
      expect(error).toMatchObject({ name: "ToolCallError", kind: "unknown-tool" });
      expect((error as unknown as { feedback: string }).feedback).not.toMatch(/delete_all|Available tools: weather/);
    });
  });
});
