import { describe, expect, it } from "vitest";
import { z } from "zod";
import { defineTool } from "../../../src/index.js";
import { ScriptedChatModel, rawStep } from "../../../src/testing/index.js";
import { callModes, runCall, user } from "../../support/run-modes.js";

const lookup = defineTool({
  name: "lookup_order",
  inputSchema: z.object({ order_id: z.string(), quantity: z.number() }),
});
const qwenCall =
  "<tool_call>\n<function=lookup_order>\n<parameter=order_id>\n27422\n</parameter>\n<parameter=quantity>\n2\n</parameter>\n</function>\n</tool_call>";

describe("recovery of tool calls written as text", () => {
  describe.each(callModes)("through %s", (mode) => {
    it("should keep a digits-only value as a string where the tool's schema wants a string", async () => {
      const model = new ScriptedChatModel([rawStep(qwenCall)], { maxRepairAttempts: 0 });
      const { output } = await runCall(
        model,
        { messages: [user("Where is order 27422?")], tools: [lookup], toolChoice: "required" },
        mode,
      );
      expect(output.toolCalls).toEqual([
        expect.objectContaining({ name: "lookup_order", args: { order_id: "27422", quantity: 2 } }),
      ]);
    });

    it("should recover them on the prompt rung, where a call is required too", async () => {
      const model = new ScriptedChatModel([rawStep(qwenCall)], {
        toolChoiceSupport: [],
        supportsStructuredOutput: false,
        maxRepairAttempts: 0,
      });
      const { output } = await runCall(
        model,
        { messages: [user("Where is order 27422?")], tools: [lookup], toolChoice: "required" },
        mode,
      );
      expect(output.meta.toolChoice).toBe("prompt");
      expect(output.toolCalls).toEqual([
        expect.objectContaining({ name: "lookup_order", args: { order_id: "27422", quantity: 2 } }),
      ]);
      expect(output.meta.repairs).toContainEqual(expect.objectContaining({ kind: "text-tool-call" }));
    });

    it("should return every <tool_call> block on the prompt rung when parallel calls are allowed, as the native rung does", async () => {
      const blocks =
        '<tool_call>{"name": "lookup_order", "arguments": {"order_id": "A1", "quantity": 1}}</tool_call>\n<tool_call>{"name": "lookup_order", "arguments": {"order_id": "B2", "quantity": 3}}</tool_call>';
      const input = {
        messages: [user("Orders A1 and B2?")],
        tools: [lookup],
        toolChoice: "required" as const,
        parallelToolCalls: true,
      };
      const native = new ScriptedChatModel([rawStep(blocks)], { maxRepairAttempts: 0 });
      const prompt = new ScriptedChatModel([rawStep(blocks)], {
        toolChoiceSupport: [],
        supportsStructuredOutput: false,
        maxRepairAttempts: 0,
      });
      for (const model of [native, prompt]) {
        const { output } = await runCall(model, input, mode);
        expect(output.toolCalls.map((call) => call.args)).toEqual([
          { order_id: "A1", quantity: 1 },
          { order_id: "B2", quantity: 3 },
        ]);
      }
    });
  });
});
