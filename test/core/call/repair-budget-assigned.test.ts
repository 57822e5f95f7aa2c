import { describe, expect, it } from "vitest";
import { z } from "zod";
import { defineTool } from "../../../src/index.js";
import { ScriptedChatModel, rawStep } from "../../../src/testing/index.js";
import { callModes, settleCall, user } from "../../support/run-modes.js";

const search = defineTool({ name: "search", inputSchema: z.object({ query: z.string() }) });

describe("ChatModel.maxRepairAttempts assigned after construction", () => {
  describe.each(callModes)("through %s", (mode) => {
    it.each([NaN, undefined, -1, 1.5])(
      "should refuse %s with a TypeError instead of re-asking without bound",
      async (budget) => {
        const model = new ScriptedChatModel(Array.from({ length: 6 }, () => rawStep("I would rather chat.")));
        // e.g. Number(process.env.REPAIRS) with the variable unset, or a config object missing the key.
        (model as { maxRepairAttempts: unknown }).maxRepairAttempts = budget;
        const { error } = await settleCall(
          model,
          { messages: [user("q")], tools: [search], toolChoice: "required" },
          mode,
        );
        expect(error).toBeInstanceOf(TypeError);
        expect(error!.message).toMatch(/maxRepairAttempts must be a non-negative integer/);
        expect(model.calls.length).toBeLessThanOrEqual(1);
      },
    );
  });
});
