import { describe, expect, it } from "vitest";
import { z } from "zod";
import { MemoryCache, defineTool } from "../../src/index.js";
import { ScriptedChatModel, streamStep, textStep, toolCallsStep } from "../../src/testing/index.js";
import { callModes, runCall, user } from "../support/run-modes.js";

const lookup = defineTool({ name: "lookup_incident", inputSchema: z.object({ incident_id: z.string() }) });

describe("ScriptedChatModel: stream steps, the script's end, recorded calls", () => {
  describe.each(callModes)("through %s", (mode) => {
    it("should give the tool call, reasoning, usage and finish reason a streamStep streams", async () => {
      const model = new ScriptedChatModel([
        streamStep([
          { type: "reasoning-delta", text: "Look it up." },
          { type: "tool-call-delta", index: 0, id: "call_s1", name: "lookup_incident", argsDelta: '{"incident_' },
          { type: "tool-call-delta", index: 0, argsDelta: 'id": "INC-001"}' },
          { type: "finish", finishReason: "tool-calls", usage: { inputTokens: 30, outputTokens: 12 } },
        ]),
      ]);
      const { output } = await runCall(model, { messages: [user("INC-001?")], tools: [lookup] }, mode);
      expect(output.toolCalls).toEqual([
        { type: "tool-call", id: "call_s1", name: "lookup_incident", args: { incident_id: "INC-001" } },
      ]);
      expect(output.reasoning).toBe("Look it up.");
      expect(output.finishReason).toBe("tool-calls");
      expect(output.usage).toMatchObject({ inputTokens: 30, outputTokens: 12 });
    });

    it("should answer a repeated call from the cache without playing a step", async () => {
      const model = new ScriptedChatModel([textStep("once")], { cache: new MemoryCache() });
      await runCall(model, { messages: [user("x")] }, mode);
      const again = await runCall(model, { messages: [user("x")] }, mode);
      expect(again.output.text).toBe("once");
      expect(again.output.meta.cacheHit).toBe(true);
      expect(model.remainingSteps).toBe(0);
    });

    it("should never let remainingSteps go negative once the script ran out", async () => {
      const model = new ScriptedChatModel([]);
      await expect(runCall(model, { messages: [user("x")] }, mode)).rejects.toThrow(/ran out of steps/);
      expect(model.remainingSteps).toBe(0);
    });

    it("should say why an unplanned request was made when the script runs out on a re-ask", async () => {
      const model = new ScriptedChatModel([
        toolCallsStep([
          { name: "lookup_incident", args: { incident_id: "A" } },
          { name: "lookup_incident", args: { incident_id: "B" } },
        ]),
      ]);
      const error = (await runCall(model, { messages: [user("A and B?")], tools: [lookup] }, mode).catch(
        (caught: unknown) => caught,
      )) as Error;
      expect(error.message).toMatch(/ran out of steps/);
      expect(error.message).toMatch(
        /keelson re-asking, because the previous reply could not be used: call one tool at a time/,
      );
    });

    it("should record calls that later mutation of the caller's objects cannot change", async () => {
      const messages = [user("first")];
      const model = new ScriptedChatModel([textStep("a")]);
      await runCall(model, { messages, parameters: { stop: ["END"] } }, mode);
      messages[0]!.content = "changed";
      messages.push(user("more"));
      expect(model.calls[0]!.messages).toEqual([user("first")]);
    });
  });
});
