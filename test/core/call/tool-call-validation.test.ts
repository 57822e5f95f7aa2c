import { describe, expect, it } from "vitest";
import { z } from "zod";
import { ToolCallError, defineTool, type RepairEvent } from "../../../src/index.js";
import { ScriptedChatModel, textStep, toolCallStep, toolCallsStep } from "../../../src/testing/index.js";
import { callModes, runCall, user } from "../../support/run-modes.js";

const weather = defineTool({
  name: "weather",
  description: "Weather of a city",
  inputSchema: z.object({ city: z.string() }),
});
const time = defineTool({ name: "time", inputSchema: z.object({ zone: z.string() }) });
const tools = [weather, time];

async function failure(promise: Promise<unknown>): Promise<ToolCallError> {
  const error = await promise.catch((caught: unknown) => caught);
  expect(ToolCallError.isInstance(error)).toBe(true);
  return error as ToolCallError;
}

describe("ChatModel tool-call validation", () => {
  describe.each(callModes)("through %s", (mode) => {
    it("should re-ask after a call to an unknown tool, with guidance that never reaches the caller", async () => {
      const model = new ScriptedChatModel([
        toolCallStep("wether", { city: "Paris" }),
        toolCallStep("weather", { city: "Paris" }),
      ]);
      const repairs: RepairEvent[] = [];
      model.emitter.on("repair", (event) => repairs.push(event));
      const messages = [user("Weather in Paris?")];
      const { output } = await runCall(model, { messages, tools }, mode);
      expect(output.toolCalls[0]).toMatchObject({ name: "weather", args: { city: "Paris" } });
      expect(repairs).toHaveLength(1);
      expect(repairs[0]!.error).toMatchObject({ kind: "unknown-tool" });
      const retried = model.calls[1]!.messages;
      expect(retried.slice(0, 1)).toEqual(messages);
      expect(retried[1]).toMatchObject({ role: "assistant", content: expect.stringContaining("wether") });
      expect(retried[2]).toMatchObject({
        role: "user",
        content: expect.stringMatching(/no tool named "wether".*Available tools: weather, time/s),
      });
      expect(messages).toEqual([user("Weather in Paris?")]);
      expect(output.message.content).not.toContain("wether");
      expect(output.meta.attempts).toHaveLength(2);
      expect(output.meta.attempts[0]!.rejected).toMatch(/wether/);
      expect(output.usage.totalTokens).toBe(30);
    });

    it.each(["constructor", "__proto__", "toString", "hasOwnProperty"])(
      "should treat a call to %s as an unknown tool",
      async (name) => {
        const model = new ScriptedChatModel([toolCallStep(name, {})], { maxRepairAttempts: 0 });
        const error = await failure(runCall(model, { messages: [user("x")], tools }, mode));
        expect(error.kind).toBe("unknown-tool");
      },
    );

    it("should validate arguments against the schema and feed back the problem and the schema", async () => {
      const model = new ScriptedChatModel([
        toolCallStep("weather", { city: 42 }),
        toolCallStep("weather", { city: "Oslo" }),
      ]);
      const { output } = await runCall(model, { messages: [user("x")], tools }, mode);
      expect(output.toolCalls[0]!.args).toEqual({ city: "Oslo" });
      const feedback = model.calls[1]!.messages[2]!.content as string;
      expect(feedback).toContain("city");
      expect(feedback).toContain('"type":"string"');
    });

    it("should throw the last error once the repair budget is spent", async () => {
      const model = new ScriptedChatModel(
        [
          toolCallStep("weather", { city: 1 }),
          toolCallStep("weather", { city: 2 }),
          toolCallStep("weather", { city: 3 }),
        ],
        { maxRepairAttempts: 2 },
      );
      const error = await failure(runCall(model, { messages: [user("x")], tools }, mode));
      expect(error.kind).toBe("invalid-args");
      expect(error.text).toContain("3");
      expect(model.calls).toHaveLength(3);
    });

    it("should reject a call under toolChoice none", async () => {
      const model = new ScriptedChatModel([toolCallStep("weather", { city: "Oslo" }), textStep("It is sunny.")]);
      const { output } = await runCall(model, { messages: [user("x")], tools, toolChoice: "none" }, mode);
      expect(output.text).toBe("It is sunny.");
      expect(output.meta.attempts[0]!.rejected).toMatch(/no tool may be called/);
    });

    it("should reject a reply without a call under required, with copy-paste fixes when the provider ignored it", async () => {
      const model = new ScriptedChatModel([textStep("I would rather chat.")], { maxRepairAttempts: 0 });
      const error = await failure(runCall(model, { messages: [user("x")], tools, toolChoice: "required" }, mode));
      expect(error.kind).toBe("tool-choice-violation");
      expect(error.message).toContain("ignored it");
      expect(error.message).toContain(
        'new ScriptedChatModel("scripted", { toolChoiceSupport: new Set(["auto","none","single"]) })',
      );
      expect(error.message).toContain('model.toolChoiceSupport = new Set(["auto","none","single"]);');
    });

    it("should reject a call to another tool than the forced one", async () => {
      const model = new ScriptedChatModel([toolCallStep("time", { zone: "UTC" })], { maxRepairAttempts: 0 });
      const error = await failure(runCall(model, { messages: [user("x")], tools, toolChoice: weather }, mode));
      expect(error).toMatchObject({ kind: "tool-choice-violation", toolName: "time" });
    });

    it("should reject parallel calls unless they are allowed", async () => {
      const two = toolCallsStep([
        { name: "weather", args: { city: "Oslo" } },
        { name: "time", args: { zone: "CET" } },
      ]);
      const strict = new ScriptedChatModel([two], { maxRepairAttempts: 0 });
      expect((await failure(runCall(strict, { messages: [user("x")], tools }, mode))).kind).toBe("parallel-calls");

      const allowed = new ScriptedChatModel([two]);
      const both = await runCall(allowed, { messages: [user("x")], tools, parallelToolCalls: true }, mode);
      expect(both.output.toolCalls.map((call) => call.name)).toEqual(["weather", "time"]);
      expect(allowed.calls[0]!.parallelToolCalls).toBe(true);

      const lenient = new ScriptedChatModel([two], { ignoreParallelToolCalls: true });
      const first = await runCall(lenient, { messages: [user("x")], tools }, mode);
      expect(first.output.toolCalls.map((call) => call.name)).toEqual(["weather"]);
      expect(first.output.meta.repairs).toContainEqual(expect.objectContaining({ kind: "parallel-calls-dropped" }));
    });
  });
});
