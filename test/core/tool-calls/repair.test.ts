import { describe, expect, it } from "vitest";
import { z } from "zod";
import { defineTool, type Tool } from "../../../src/index.js";
import { ScriptedChatModel, rawStep, textStep, toolCallStep } from "../../../src/testing/index.js";
import { callModes, runCall, user } from "../../support/run-modes.js";
import { hasSharedFixtures, missingFixturesMessage, readJSONFixture } from "../../support/shared-fixtures.js";

const search = defineTool({
  name: "search",
  inputSchema: z.object({ query: z.string(), limit: z.number().optional() }),
});
const ping = defineTool({ name: "ping", inputSchema: z.object({}) });

describe("ChatModel repair", () => {
  describe.each(callModes)("through %s", (mode) => {
    it("should fill missing tool-call ids as call_ plus 8 [a-z0-9]", async () => {
      const model = new ScriptedChatModel([toolCallStep("search", { query: "x" })]);
      const { output } = await runCall(model, { messages: [user("q")], tools: [search] }, mode);
      expect(output.toolCalls[0]!.id).toMatch(/^call_[a-z0-9]{8}$/);
      expect(output.meta.repairs).toContainEqual(expect.objectContaining({ kind: "missing-id", toolName: "search" }));
    });

    it.each([
      ["broken JSON", '{"query": "cats", "limit": 3', "json-repaired"],
      ["a trailing comma", '{"query": "cats", "limit": 3,}', "json-repaired"],
      ["single quotes", "{'query': 'cats', 'limit': 3}", "json-repaired"],
      ["doubly encoded JSON", JSON.stringify(JSON.stringify({ query: "cats", limit: 3 })), "double-encoded"],
      ["a code fence", '```json\n{"query": "cats", "limit": 3}\n```', "stripped-wrapper"],
      ["trailing reasoning", '{"query": "cats", "limit": 3}\n\nI will now search...', "stripped-wrapper"],
    ])("should repair %s in arguments", async (_name, args, kind) => {
      const model = new ScriptedChatModel([toolCallStep("search", args)]);
      const { output } = await runCall(model, { messages: [user("q")], tools: [search] }, mode);
      expect(output.toolCalls[0]!.args).toEqual({ query: "cats", limit: 3 });
      expect(output.meta.repairs.map((repair) => repair.kind)).toContain(kind);
    });

    it("should read empty arguments as {} for a tool without parameters", async () => {
      const model = new ScriptedChatModel([toolCallStep("ping", "")]);
      const { output } = await runCall(model, { messages: [user("q")], tools: [ping] }, mode);
      expect(output.toolCalls[0]!.args).toEqual({});
    });

    it("should never let __proto__ or constructor.prototype reach a prototype", async () => {
      const payload =
        '{"query": "x", "__proto__": {"polluted": true}, "constructor": {"prototype": {"polluted": true}}}';
      const loose = defineTool({
        name: "loose",
        inputSchema: { type: "object", properties: { query: { type: "string" } } },
      });
      const model = new ScriptedChatModel([toolCallStep("loose", payload)]);
      const { output } = await runCall(model, { messages: [user("q")], tools: [loose] }, mode);
      const args = output.toolCalls[0]!.args;
      expect(args.query).toBe("x");
      expect(Object.prototype.hasOwnProperty.call(args, "__proto__")).toBe(false);
      expect(Object.getPrototypeOf(args)).toBe(Object.prototype);
      expect(({} as Record<string, unknown>).polluted).toBeUndefined();
    });

    it("should recover a tool call written as text when a call was required", async () => {
      const model = new ScriptedChatModel([
        rawStep('<tool_call>{"name": "search", "arguments": {"query": "cats"}}</tool_call>'),
      ]);
      const { output } = await runCall(model, { messages: [user("q")], tools: [search], toolChoice: "required" }, mode);
      expect(output.toolCalls).toEqual([expect.objectContaining({ name: "search", args: { query: "cats" } })]);
      expect(output.text).toBe("");
      expect(output.meta.repairs).toContainEqual(expect.objectContaining({ kind: "text-tool-call" }));
    });

    it("should read a reply that is only a call as that call under toolChoice auto, unless the option is off", async () => {
      const text = '{"name": "search", "arguments": {"query": "cats"}}';
      const byDefault = new ScriptedChatModel([rawStep(text)]);
      const recovered = await runCall(byDefault, { messages: [user("q")], tools: [search] }, mode);
      expect(recovered.output.toolCalls[0]).toMatchObject({ name: "search", args: { query: "cats" } });
      expect(recovered.output.text).toBe("");

      const optedOut = new ScriptedChatModel([rawStep(text)], { recoverTextToolCallsOnAuto: false });
      const asText = await runCall(optedOut, { messages: [user("q")], tools: [search] }, mode);
      expect(asText.output.toolCalls).toEqual([]);
      expect(asText.output.text).toBe(text);
    });

    it("should not recover calls to unknown tools or with schema-invalid arguments", async () => {
      for (const text of ['{"name": "delete_all", "arguments": {}}', '{"name": "search", "arguments": {"query": 5}}']) {
        const model = new ScriptedChatModel([rawStep(text), toolCallStep("search", { query: "ok" })]);
        const { output } = await runCall(
          model,
          { messages: [user("q")], tools: [search], toolChoice: "required" },
          mode,
        );
        expect(output.meta.repairs.map((repair) => repair.kind)).not.toContain("text-tool-call");
        expect(output.meta.attempts).toHaveLength(2);
      }
    });

    it("should do none of this with fixInvalidToolCalls off", async () => {
      const model = new ScriptedChatModel([rawStep('{"name": "search", "arguments": {"query": "cats"}}')], {
        fixInvalidToolCalls: false,
        maxRepairAttempts: 0,
      });
      await expect(
        runCall(model, { messages: [user("q")], tools: [search], toolChoice: "required" }, mode),
      ).rejects.toMatchObject({
        kind: "tool-choice-violation",
      });
    });

    it("should re-ask after an empty reply, keep reasoning, and raise EmptyResponseError once the budget is spent", async () => {
      const model = new ScriptedChatModel([textStep("", { reasoning: "hmm" }), textStep("answer")]);
      const { output } = await runCall(model, { messages: [user("q")] }, mode);
      expect(output.text).toBe("answer");
      expect(output.meta.attempts[0]!.rejected).toMatch(/empty response.*only reasoning/);

      const empty = new ScriptedChatModel([textStep(""), textStep(""), textStep("")]);
      await expect(runCall(empty, { messages: [user("q")] }, mode)).rejects.toMatchObject({
        name: "EmptyResponseError",
      });
      expect(empty.calls).toHaveLength(3);

      const lenient = new ScriptedChatModel([textStep("", { reasoning: "only thoughts" })], {
        retryOnEmptyResponse: false,
      });
      const kept = await runCall(lenient, { messages: [user("q")] }, mode);
      expect(kept.output).toMatchObject({ text: "", reasoning: "only thoughts" });
    });
  });
});

interface Quote {
  thread: string;
  posted_output?: string;
}

/** Tools named after what the quoted models called, so the quotes are recovered for real. */
function toolFor(name: string, keys: string[]): Tool {
  return defineTool({
    name,
    inputSchema: { type: "object", properties: Object.fromEntries(keys.map((key) => [key, {}])), required: keys },
  });
}

describe.skipIf(!hasSharedFixtures)("ChatModel repair of real broken model output", () => {
  if (!hasSharedFixtures) it.skip(missingFixturesMessage, () => {});
  const quotes = hasSharedFixtures ? readJSONFixture<Quote[]>("malformed-tool-calls/issue-thread-quotes.json") : [];
  const output = (thread: string) => quotes.find((quote) => quote.thread === thread)!.posted_output!;

  const cases: [string, Tool, Record<string, unknown>][] = [
    [
      "ollama/ollama#11185",
      toolFor("LLM_Tool_RAG", ["term", "vector"]),
      { term: "accidents, tribunal de Versailles", vector: "accidents tribunal Versailles jugements" },
    ],
    ["ollama/ollama#11662", toolFor("repeat_string", ["string"]), { string: "bar" }],
    ["ollama/ollama#12174", toolFor("calculator", ["expr"]), { expr: "17 * 23" }],
    ["ollama/ollama#12017", toolFor("write_log", ["message"]), { message: "}A" }],
    [
      "ollama/ollama#14745",
      toolFor("bash", ["command", "description"]),
      { command: 'grep "redacted" | head -20', description: "Find Valkey initialization" },
    ],
    ["ardanlabs/kronk#950", toolFor("get_weather", ["location"]), { location: "Paris" }],
    ["vllm-project/vllm#54964", toolFor("get_db_config", ["param"]), { param: "max_connections" }],
  ];

  describe.each(callModes)("through %s", (mode) => {
    it.each(cases)("should recover the call quoted in %s", async (thread, tool, args) => {
      const model = new ScriptedChatModel([rawStep(output(thread))], { maxRepairAttempts: 0 });
      const result = await runCall(model, { messages: [user("q")], tools: [tool], toolChoice: "required" }, mode);
      expect(result.output.toolCalls).toEqual([
        { type: "tool-call", id: expect.stringMatching(/^call_[a-z0-9]{8}$/), name: tool.name, args },
      ]);
    });

    it("should repair the trailing-reasoning arguments quoted in librefang#2975", async () => {
      const quoted = output("librefang/librefang#2975").replace(/\\n/g, "\n");
      const model = new ScriptedChatModel([toolCallStep("search", quoted)]);
      const result = await runCall(model, { messages: [user("q")], tools: [search] }, mode);
      expect(result.output.toolCalls[0]!.args).toEqual({ query: "TO-DO", limit: 10 });
    });
  });
});

describe("ChatModel with fixInvalidToolCalls off", () => {
  it("should re-ask broken arguments instead of repairing them, and still fill missing ids", async () => {
    const model = new ScriptedChatModel(
      [toolCallStep("search", '{"query": "cats"'), toolCallStep("search", '{"query": "cats"}')],
      { fixInvalidToolCalls: false },
    );
    const output = await model.create({ messages: [user("q")], tools: [search] });
    expect(output.meta.attempts).toHaveLength(2);
    expect(output.meta.attempts[0]!.rejected).toMatch(/not valid JSON/);
    expect(output.toolCalls[0]!.id).toMatch(/^call_[a-z0-9]{8}$/);
    expect(output.meta.repairs.map((repair) => repair.kind)).toEqual(["missing-id"]);
  });
});
