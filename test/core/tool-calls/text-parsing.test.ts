import { describe, expect, it } from "vitest";
import { z } from "zod";
import { defineTool } from "../../../src/index.js";
import { ScriptedChatModel, rawStep, toolCallStep } from "../../../src/testing/index.js";
import { callModes, runCall, user } from "../../support/run-modes.js";

const search = defineTool({ name: "search", inputSchema: z.object({ query: z.string() }) });
const weather = defineTool({ name: "weather", inputSchema: z.object({ city: z.string() }) });

describe("Reading what small models write", () => {
  describe.each(callModes)("through %s", (mode) => {
    it("should not complete a text tool call the token limit cut off (finish reason length)", async () => {
      // The model's reply was cut off mid-argument: recovering it would invent the rest (`"cat"` for `"caterpillar…"`).
      const cut = '<tool_call>\n{"name": "search", "arguments": {"query": "cat';
      const model = new ScriptedChatModel([
        rawStep(cut, { finishReason: "length" }),
        toolCallStep("search", { query: "caterpillar" }),
      ]);
      const { output } = await runCall(model, { messages: [user("q")], tools: [search], toolChoice: "required" }, mode);
      expect(output.toolCalls[0]!.args).toEqual({ query: "caterpillar" });
      expect(output.meta.attempts).toHaveLength(2);
      expect(output.meta.attempts[0]!.rejected).toMatch(/token limit/);
    });

    it("should not complete a tool-union reply in <tool_call> form that the token limit cut off", async () => {
      const cut = '<tool_call>{"name": "weather", "arguments": {"city": "Osl';
      const model = new ScriptedChatModel(
        [rawStep(cut, { finishReason: "length" }), rawStep('{"name": "weather", "parameters": {"city": "Oslo"}}')],
        {
          toolChoiceSupport: ["auto"],
        },
      );
      const { output } = await runCall(
        model,
        { messages: [user("q")], tools: [weather], toolChoice: "required" },
        mode,
      );
      expect(output.meta.toolChoice).toBe("response-format");
      expect(output.toolCalls[0]!.args).toEqual({ city: "Oslo" });
      expect(output.meta.attempts).toHaveLength(2);
    });

    it("should find a fenced tool call after prose that contains brackets", async () => {
      const text = 'Step [1]: look it up.\n```json\n{"name": "search", "arguments": {"query": "cats"}}\n```';
      const model = new ScriptedChatModel([rawStep(text)], { maxRepairAttempts: 0 });
      const { output } = await runCall(model, { messages: [user("q")], tools: [search], toolChoice: "required" }, mode);
      expect(output.toolCalls[0]).toMatchObject({ name: "search", args: { query: "cats" } });
    });

    it("should find a bare tool call after prose that contains a {placeholder}", async () => {
      const text = 'I will fill in {query} and call the tool:\n{"name": "search", "arguments": {"query": "cats"}}';
      const model = new ScriptedChatModel([rawStep(text)], { maxRepairAttempts: 0 });
      const { output } = await runCall(model, { messages: [user("q")], tools: [search], toolChoice: "required" }, mode);
      expect(output.toolCalls[0]).toMatchObject({ name: "search", args: { query: "cats" } });
    });

    it("should find structured output after prose with a [bracket]", async () => {
      const model = new ScriptedChatModel([rawStep('Result [final]:\n```json\n{"city": "Oslo"}\n```')], {
        maxRepairAttempts: 0,
      });
      const output = await model.create({
        messages: [user("q")],
        responseFormat: z.object({ city: z.string() }),
      } as never);
      expect((output as { object?: unknown }).object).toEqual({ city: "Oslo" });
    });

    it("should not silently drop a second call concatenated into one arguments string", async () => {
      // llama-style parallel calls merged into one arguments string: keeping the first silently loses a call.
      const model = new ScriptedChatModel([
        toolCallStep("search", '{"query": "cats"}{"query": "dogs"}'),
        toolCallStep("search", { query: "cats" }),
      ]);
      const { output } = await runCall(model, { messages: [user("q")], tools: [search] }, mode);
      expect(output.meta.attempts).toHaveLength(2);
    });

    it("should recover every call of a reply with one bare JSON call per line", async () => {
      const text =
        '{"name": "search", "arguments": {"query": "cats"}}\n{"name": "search", "arguments": {"query": "dogs"}}';
      const model = new ScriptedChatModel([rawStep(text)], { maxRepairAttempts: 0 });
      const { output } = await runCall(
        model,
        { messages: [user("q")], tools: [search], toolChoice: "required", parallelToolCalls: true },
        mode,
      );
      expect(output.toolCalls.map((call) => call.args)).toEqual([{ query: "cats" }, { query: "dogs" }]);
    });
  });
});
