import { describe, expect, it } from "vitest";
import { z } from "zod";
import { defineTool } from "../../../src/index.js";
import { ScriptedChatModel, textStep } from "../../../src/testing/index.js";
import { callModes, settleCall, user } from "../../support/run-modes.js";

const search = defineTool({ name: "search", inputSchema: z.object({ query: z.string() }) });
const forced = { messages: [user("Find cats")], tools: [search], toolChoice: "required" as const };

describe("ChatModel with an empty reply to a forced tool call", () => {
  describe.each(callModes)("through %s", (mode) => {
    it("should raise EmptyResponseError for a reasoning-only reply cut at the token limit, not blame tool_choice", async () => {
      const cut = () => textStep("", { reasoning: "Let me think about which tool…", finishReason: "length" });
      const model = new ScriptedChatModel([cut(), cut(), cut()]);
      const { error } = await settleCall(model, forced, mode);
      expect(error).toMatchObject({ name: "EmptyResponseError" });
      expect(error!.message).toMatch(/only reasoning/);
      expect(error!.message).toMatch(/maxTokens/);
      // The reply was empty: the provider did not ignore tool_choice, and the support set is not to blame.
      expect(error!.message).not.toMatch(/ignored it|toolChoiceSupport/);
    });

    it("should name the content filter, not advise dropping 'required', when the provider filtered the reply", async () => {
      const filtered = () => textStep("", { finishReason: "content-filter" });
      const model = new ScriptedChatModel([filtered(), filtered(), filtered()]);
      const { error } = await settleCall(model, forced, mode);
      expect(error).toMatchObject({ name: "EmptyResponseError" });
      expect(error!.message).toMatch(/content filter/);
      expect(error!.message).not.toMatch(/ignored it|toolChoiceSupport/);
    });

    it("should still advise on the support set when the model answered in prose instead of calling", async () => {
      const prose = () => textStep("Cats are great.");
      const model = new ScriptedChatModel([prose(), prose(), prose()]);
      const { error } = await settleCall(model, forced, mode);
      expect(error).toMatchObject({ name: "ToolCallError", kind: "tool-choice-violation" });
      expect(error!.message).toMatch(/ignored it/);
    });
  });
});
