import { describe, expect, it } from "vitest";
import { z } from "zod";
import { ToolCallError, defineTool, type ChatModelInput, type WarningEvent } from "../../../src/index.js";
import { ScriptedChatModel, errorStep, rawStep, toolCallStep } from "../../../src/testing/index.js";
import { callModes, settleCall, user } from "../../support/run-modes.js";

const weather = defineTool({ name: "weather", inputSchema: z.object({ city: z.string() }) });
const time = defineTool({ name: "time", inputSchema: z.object({ zone: z.string() }) });
const ask: ChatModelInput = { messages: [user("Weather in Oslo?")], tools: [weather, time], toolChoice: "required" };
const refusesRequired = () =>
  errorStep(
    { statusCode: 400, message: "tool_choice 'required' is not supported", rejectedToolChoice: "required" },
    { delayMs: 20 },
  );
const unionReply = (city: string) => rawStep(`{"name": "weather", "parameters": {"city": "${city}"}}`);

describe("a tool_choice refusal learned while other calls are in flight", () => {
  it.each(callModes)(
    "should move every in-flight call that sent the refused value to the next rung (%s)",
    async (mode) => {
      const model = new ScriptedChatModel(
        [refusesRequired(), refusesRequired(), unionReply("Oslo"), unionReply("Rome")],
        {
          toolChoiceSupport: ["auto", "none", "required"],
          retry: { maxRetries: 0 },
        },
      );
      const warnings: WarningEvent[] = [];
      model.emitter.on("warning", (event) => warnings.push(event));
      const [first, second] = await Promise.all([settleCall(model, ask, mode), settleCall(model, ask, mode)]);
      expect(first.error).toBeUndefined();
      expect(second.error).toBeUndefined();
      expect(first.output!.meta.toolChoice).toBe("response-format");
      expect(second.output!.meta.toolChoice).toBe("response-format");
      expect([...model.toolChoiceSupport]).toEqual(["auto", "none"]);
      expect(model.calls.map((call) => call.toolChoice)).toEqual(["required", "required", undefined, undefined]);
    },
  );
});

describe("a model's maxRepairAttempts changed after its first call", () => {
  it.each(callModes)("should re-ask as often as the setting says now (%s)", async (mode) => {
    const wrong = () => toolCallStep("nope", {});
    const model = new ScriptedChatModel([
      toolCallStep("weather", { city: "Oslo" }),
      wrong(),
      toolCallStep("weather", { city: "Rome" }),
    ]);
    const first = await settleCall(model, ask, mode);
    expect(first.error).toBeUndefined();

    model.maxRepairAttempts = 0;
    const second = await settleCall(model, ask, mode);
    expect(ToolCallError.isInstance(second.error)).toBe(true);
    expect(model.calls).toHaveLength(2);
  });
});
