import { describe, expect, it } from "vitest";
import { z } from "zod";
import { defineTool, type Tool } from "../../../src/index.js";
import { ScriptedChatModel, rawStep, toolCallStep } from "../../../src/testing/index.js";
import { callModes, runCall, user } from "../../support/run-modes.js";

// Gemma 4's native form (https://ai.google.dev/gemma/docs/core/prompt-formatting-gemma4):
// `<|tool_call>call:name{key:<|"|>text<|"|>,n:1}<tool_call|>`, as a server that does not parse it
// leaves it in the reply's text. The corpus test holds the documented examples; these hold the guarantees.
const search = defineTool({ name: "search", inputSchema: z.object({ query: z.string() }) });
const record = defineTool({ name: "record", inputSchema: { type: "object" } });
const forced = (tools: Tool[] = [search]) => ({ messages: [user("q")], tools, toolChoice: "required" as const });
const q = (text: string) => `<|"|>${text}<|"|>`;

describe("Gemma 4's tool-call form written as text", () => {
  describe.each(callModes)("through %s", (mode) => {
    it("should take a string exactly as written between the delimiters: quotes, braces, commas, newlines, backslashes", async () => {
      const written = 'say "hi", {not: an object}, [nor a list]\nC:\\temp\\new';
      const model = new ScriptedChatModel([rawStep(`<|tool_call>call:search{query:${q(written)}}<tool_call|>`)], {
        maxRepairAttempts: 0,
      });
      const { output } = await runCall(model, forced(), mode);
      expect(output.toolCalls.map(({ name, args }) => ({ name, args }))).toEqual([
        { name: "search", args: { query: written } },
      ]);
      expect(output.meta.repairs).toContainEqual(expect.objectContaining({ kind: "text-tool-call" }));
    });

    it("should read quoted keys and Python-quoted strings, which some templates write, and an empty call", async () => {
      const text = `<|tool_call>call:record{"city": "Paris", 'days': 2, empty:{}, none:[]}<tool_call|><|tool_call>call:record{}<tool_call|>`;
      const model = new ScriptedChatModel([rawStep(text)], { maxRepairAttempts: 0 });
      const { output } = await runCall(model, { ...forced([record]), parallelToolCalls: true }, mode);
      expect(output.toolCalls.map((call) => call.args)).toEqual([{ city: "Paris", days: 2, empty: {}, none: [] }, {}]);
    });

    it("should keep the prose before the call as the reply's text and stop at a tool response the model went on to write", async () => {
      const text = `Let me look.<|tool_call>call:search{query:${q("keelson")}}<|tool_response>response:search{hits:3}`;
      const model = new ScriptedChatModel([rawStep(text)], { maxRepairAttempts: 0 });
      const { output } = await runCall(model, forced(), mode);
      expect(output.toolCalls.map((call) => call.args)).toEqual([{ query: "keelson" }]);
      expect(output.text).toBe("Let me look.");
    });

    it("should repair the name of the only tool it fits and list the repair", async () => {
      const model = new ScriptedChatModel([rawStep(`<|tool_call>call:Search{query:${q("x")}}<tool_call|>`)], {
        maxRepairAttempts: 0,
      });
      const { output } = await runCall(model, forced(), mode);
      expect(output.toolCalls[0]).toMatchObject({ name: "search", args: { query: "x" } });
      expect(output.meta.repairs).toContainEqual(expect.objectContaining({ kind: "tool-name", toolName: "search" }));
    });

    it.each([
      [
        "a bare word where a string goes (the delimiters stripped)",
        "<|tool_call>call:search{query:keelson}<tool_call|>",
      ],
      ["an unclosed string", `<|tool_call>call:search{query:<|"|>keelson}<tool_call|>`],
      ["an unclosed object", `<|tool_call>call:search{query:${q("keelson")}<tool_call|>`],
      ["no call: prefix", `<|tool_call>search{query:${q("keelson")}}<tool_call|>`],
      ["positional arguments", `<|tool_call>call:search(${q("keelson")})<tool_call|>`],
      ["text after the object", `<|tool_call>call:search{query:${q("keelson")}} and more<tool_call|>`],
      ["an expression", "<|tool_call>call:search{query:1+2}<tool_call|>"],
    ])("should not read %s as a call, and re-ask", async (_what, text) => {
      const model = new ScriptedChatModel([rawStep(text), toolCallStep("search", { query: "asked again" })]);
      const { output } = await runCall(model, forced(), mode);
      expect(output.toolCalls[0]!.args).toEqual({ query: "asked again" });
      expect(output.meta.attempts).toHaveLength(2);
    });

    it("should not complete a call the token limit cut off before its closing token", async () => {
      const model = new ScriptedChatModel([
        rawStep(`<|tool_call>call:search{query:${q("cat")}}`, { finishReason: "length" }),
        toolCallStep("search", { query: "caterpillar" }),
      ]);
      const { output } = await runCall(model, forced(), mode);
      expect(output.toolCalls[0]!.args).toEqual({ query: "caterpillar" });
      expect(output.meta.attempts[0]!.rejected).toMatch(/token limit/);
    });

    it("should refuse values nested past the limit instead of recursing without end", async () => {
      const deep = `<|tool_call>call:record{a:${"[".repeat(100)}${"]".repeat(100)}}<tool_call|>`;
      const model = new ScriptedChatModel([rawStep(deep), toolCallStep("record", { ok: true })]);
      const { output } = await runCall(model, forced([record]), mode);
      expect(output.toolCalls[0]!.args).toEqual({ ok: true });
      expect(output.meta.attempts).toHaveLength(2);
    });
  });
});
