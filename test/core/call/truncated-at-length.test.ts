import { describe, expect, it } from "vitest";
import { z } from "zod";
import { defineTool } from "../../../src/index.js";
import { ScriptedChatModel, rawStep, toolCallStep } from "../../../src/testing/index.js";
import { callModes, runCall, settleCall, user } from "../../support/run-modes.js";

const writeFile = defineTool({ name: "write_file", inputSchema: z.object({ path: z.string(), content: z.string() }) });
const ask = { messages: [user("Write the report")], tools: [writeFile] };
const cutShort = '{"path": "report.md", "content": "# Report\\n\\nRevenue grew by 4';

describe("ChatModel with a reply cut off at the token limit", () => {
  describe.each(callModes)("through %s", (mode) => {
    it("should not complete arguments the provider cut off (finish reason 'length') into a valid call", async () => {
      const model = new ScriptedChatModel([toolCallStep("write_file", cutShort, { finishReason: "length" })], {
        maxRepairAttempts: 0,
      });
      const { output, error } = await settleCall(model, ask, mode);
      expect(output?.toolCalls).toBeUndefined();
      expect(error).toMatchObject({ name: "ToolCallError", kind: "invalid-args", toolName: "write_file" });
      expect(error!.message).toMatch(/maxTokens/);
    });

    it("should re-ask a call cut off at the token limit and take the complete one", async () => {
      const complete = { path: "report.md", content: "# Report\n\nRevenue grew by 4%." };
      const model = new ScriptedChatModel([
        toolCallStep("write_file", cutShort, { finishReason: "length" }),
        toolCallStep("write_file", complete),
      ]);
      const { output } = await runCall(model, ask, mode);
      expect(output.toolCalls[0]!.args).toEqual(complete);
      expect(output.meta.attempts[0]!.rejected).toMatch(/cut off/);
    });

    it("should not complete a structured answer cut off at the token limit", async () => {
      const model = new ScriptedChatModel([rawStep('{"summary": "Revenue grew by 4', { finishReason: "length" })], {
        maxRepairAttempts: 0,
      });
      const { output, error } = await settleCall(
        model,
        { messages: [user("Summarise")], responseFormat: z.object({ summary: z.string() }) },
        mode,
      );
      expect(output?.object).toBeUndefined();
      expect(error).toMatchObject({ name: "StructuredOutputError" });
      expect(error!.message).toMatch(/maxTokens/);
    });

    it("should not complete a tool-union reply cut off at the token limit (response-format rung)", async () => {
      const cut =
        '{"name": "write_file", "parameters": {"path": "report.md", "content": "# Report\\n\\nRevenue grew by 4';
      const model = new ScriptedChatModel([rawStep(cut, { finishReason: "length" })], {
        toolChoiceSupport: ["auto"],
        maxRepairAttempts: 0,
      });
      const { output, error } = await settleCall(model, { ...ask, toolChoice: "required" }, mode);
      expect(output?.toolCalls).toBeUndefined();
      expect(error).toMatchObject({ name: "ToolCallError", kind: "invalid-args" });
      expect(error!.message).toMatch(/maxTokens/);
    });

    it("should still repair broken JSON in a reply that finished normally", async () => {
      const model = new ScriptedChatModel([toolCallStep("write_file", '{"path": "a.md", "content": "x",}')]);
      const { output } = await runCall(model, ask, mode);
      expect(output.toolCalls[0]!.args).toEqual({ path: "a.md", content: "x" });
    });
  });
});
