import { describe, expect, it } from "vitest";
import { z } from "zod";
import { UnsupportedFeatureError, defineTool } from "../../../src/index.js";
import { ScriptedChatModel } from "../../../src/testing/index.js";
import { callModes, runCall, user } from "../../support/run-modes.js";

const weather = defineTool({ name: "weather", inputSchema: z.object({ city: z.string() }) });

describe("the rejected rung", () => {
  describe.each(callModes)("through %s", (mode) => {
    it("should not tell a caller of a model without tool calling to switch on a fallback that is on and cannot help", async () => {
      const model = new ScriptedChatModel([], { supportsToolCalling: false });
      const error = await runCall(model, { messages: [user("x")], tools: [weather] }, mode).catch(
        (caught: unknown) => caught,
      );
      expect(UnsupportedFeatureError.isInstance(error)).toBe(true);
      const message = (error as Error).message;
      expect(message).toMatch(/cannot call tools/);
      expect(message).not.toMatch(/Set toolCallFallbackViaResponseFormat: true/);
    });
  });
});
