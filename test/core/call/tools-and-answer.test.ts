// "Tools and a final answer in one call" (API.md): with tools and a responseFormat schema under
// toolChoice "auto", every rung returns validated tool calls, or the object with no tool calls.
import { describe, expect, it } from "vitest";
import { z } from "zod";
import { MemoryCache, defineTool, type ChatModelOptions, type FallbackEvent } from "../../../src/index.js";
import {
  ScriptedChatModel,
  rawStep,
  streamStep,
  textStep,
  toolCallStep,
  toolCallsStep,
} from "../../../src/testing/index.js";
import { callModes, runCall, settleCall, user } from "../../support/run-modes.js";

const lookup = defineTool({ name: "lookup_incident", inputSchema: z.object({ incident_id: z.string() }) });
const page = defineTool({ name: "page_oncall", inputSchema: z.object({ team: z.string() }) });
const verdict = z.object({ service: z.string(), severity: z.number().int() });
const tools = [lookup, page];
const ask = { messages: [user("Triage INC-1")], tools, responseFormat: verdict };
const answerName = "keelson_final_answer";
const answer = { service: "billing", severity: 2 };

const rungs: Record<string, ChatModelOptions> = {
  // A provider that takes tools and a response format together (OpenAI chat): both on the wire.
  "native, both sent": {},
  // One that cannot combine them but forces calls (Bedrock Claude, Anthropic): a forced answer tool.
  "native, answer tool": { supportsResponseFormatWithTools: false },
  // No forcing but structured output (Ollama): one response format for both.
  "response-format": { supportsResponseFormatWithTools: false, toolChoiceSupport: [] },
  // No tool calling and no structured output: the union in the prompt.
  prompt: { supportsToolCalling: false, supportsStructuredOutput: false, toolChoiceSupport: [] },
};

/** The model's reply giving the answer, in the form each rung asks for. */
function answerStep(rung: string) {
  if (rung === "native, both sent") return textStep(JSON.stringify(answer));
  if (rung === "native, answer tool") return toolCallStep(answerName, answer, { id: "tooluse_1" });
  return rawStep(JSON.stringify({ name: answerName, parameters: answer }));
}

/** The model's reply calling lookup_incident, in the form each rung asks for. */
function callStep(rung: string) {
  if (rung.startsWith("native")) return toolCallStep("lookup_incident", { incident_id: "INC-1" }, { id: "call_a" });
  return rawStep(JSON.stringify({ name: "lookup_incident", parameters: { incident_id: "INC-1" } }));
}

describe("tools and a final answer in one call", () => {
  describe.each(callModes)("through %s", (mode) => {
    describe.each(Object.keys(rungs))("on the %s rung", (rung) => {
      const make = (steps: ConstructorParameters<typeof ScriptedChatModel>[0]) =>
        new ScriptedChatModel(steps, rungs[rung]);

      it("should return the validated object and no tool calls when the model answers", async () => {
        const scripted = make([answerStep(rung)]);
        const { output, chunks } = await runCall(scripted, ask, mode);
        expect(output.object).toEqual(answer);
        expect(output.toolCalls).toEqual([]);
        expect(output.finishReason).toBe("stop");
        expect(output.text).toBe(JSON.stringify(answer));
        expect(output.message.content).toBe(JSON.stringify(answer));
        // The synthetic answer is never shown as a tool call, streamed or not.
        expect(chunks.filter((chunk) => chunk.type === "tool-call")).toEqual([]);
        if (mode === "createStream") expect(chunks.at(-1)).toMatchObject({ type: "finish", finishReason: "stop" });
      });

      it("should return validated tool calls and no object when the model calls a tool", async () => {
        const scripted = make([callStep(rung)]);
        const { output, chunks } = await runCall(scripted, ask, mode);
        expect(output.object).toBeUndefined();
        expect(output.toolCalls).toHaveLength(1);
        expect(output.toolCalls[0]).toMatchObject({ name: "lookup_incident", args: { incident_id: "INC-1" } });
        expect(output.toolCalls[0]!.id).toMatch(rung.startsWith("native") ? /^call_a$/ : /^call_[a-z0-9]{8}$/);
        expect(output.finishReason).toBe("tool-calls");
        if (mode === "createStream") {
          expect(chunks.filter((chunk) => chunk.type === "tool-call")).toEqual([
            { type: "tool-call", toolCall: output.toolCalls[0] },
          ]);
        }
      });

      it("should serve a second identical call from the cache, tool calls and the answer alike", async () => {
        for (const step of [callStep(rung), answerStep(rung)]) {
          const scripted = new ScriptedChatModel([step], { ...rungs[rung], cache: new MemoryCache() });
          const first = await runCall(scripted, ask, mode);
          const second = await runCall(scripted, ask, mode);
          expect(scripted.calls).toHaveLength(1);
          expect(second.output.meta.cacheHit).toBe(true);
          expect(second.output.object).toEqual(first.output.object);
          expect(second.output.toolCalls).toEqual(first.output.toolCalls);
        }
      });

      it("should re-ask an answer that does not match the schema, then return the valid one", async () => {
        const bad = { service: "billing", severity: "high" };
        const badStep =
          rung === "native, both sent"
            ? textStep(JSON.stringify(bad))
            : rung === "native, answer tool"
              ? toolCallStep(answerName, bad)
              : rawStep(JSON.stringify({ name: answerName, parameters: bad }));
        const scripted = make([badStep, answerStep(rung)]);
        const { output, chunks } = await runCall(scripted, ask, mode);
        expect(output.object).toEqual(answer);
        expect(output.meta.attempts).toHaveLength(2);
        expect(output.meta.attempts[0]!.rejected).toMatch(/severity/);
        // The re-ask tells the model what was wrong.
        const reAsk = scripted.calls[1]!.messages.at(-1)!;
        expect(JSON.stringify(reAsk.content)).toMatch(/severity/);
        if (mode === "createStream") expect(chunks.some((chunk) => chunk.type === "reset")).toBe(true);
      });

      it("should send what the rung promises", async () => {
        const scripted = make([answerStep(rung)]);
        const fallbacks: FallbackEvent[] = [];
        scripted.emitter.on("fallback", (event) => fallbacks.push(event));
        const { output } = await runCall(scripted, ask, mode);
        const sent = scripted.calls[0]!;
        if (rung === "native, both sent") {
          expect(output.meta.toolChoice).toBe("native");
          expect(sent.tools!.map((tool) => tool.name)).toEqual(["lookup_incident", "page_oncall"]);
          expect(sent.toolChoice).toBe("auto");
          expect(sent.responseFormat).toMatchObject({ type: "json-schema", schema: { type: "object" } });
        } else if (rung === "native, answer tool") {
          expect(output.meta.toolChoice).toBe("native");
          expect(sent.tools!.map((tool) => tool.name)).toEqual(["lookup_incident", "page_oncall", answerName]);
          expect(sent.tools![2]!.parameters).toMatchObject({ properties: { service: {}, severity: {} } });
          // The model must pick one: a tool or the answer.
          expect(sent.toolChoice).toBe("required");
          expect(sent.responseFormat).toBeUndefined();
        } else if (rung === "response-format") {
          expect(output.meta.toolChoice).toBe("response-format");
          expect(sent.tools).toBeUndefined();
          expect(sent.toolChoice).toBeUndefined();
          const names = (
            sent.responseFormat as unknown as { schema: { anyOf: { properties: { name: { enum: string[] } } }[] } }
          ).schema.anyOf.map((variant) => variant.properties.name.enum[0]);
          expect(names).toEqual(["lookup_incident", "page_oncall", answerName]);
          expect(fallbacks).toHaveLength(1);
        } else {
          expect(output.meta.toolChoice).toBe("prompt");
          expect(sent.tools).toBeUndefined();
          expect(sent.responseFormat).toBeUndefined();
          const system = sent.messages[0]!;
          expect(system.role).toBe("system");
          expect(system.content).toContain(`give the final answer with the name '${answerName}'`);
          expect(system.content).toContain('"enum":["keelson_final_answer"]');
          expect(system.content).toContain('"service"');
        }
        if (rung.startsWith("native")) expect(fallbacks).toEqual([]);
        // The caller's messages are never mutated.
        expect(ask.messages).toEqual([user("Triage INC-1")]);
      });
    });

    it("should re-ask a reply with tool calls and the final answer together (answer tool)", async () => {
      const scripted = new ScriptedChatModel(
        [
          toolCallsStep([
            { name: "lookup_incident", args: { incident_id: "INC-1" } },
            { name: answerName, args: answer },
          ]),
          toolCallStep(answerName, answer),
        ],
        { supportsResponseFormatWithTools: false, allowParallelToolCalls: true },
      );
      const { output } = await runCall(scripted, ask, mode);
      expect(output.object).toEqual(answer);
      expect(output.meta.attempts[0]!.rejected).toMatch(/not both in one reply/);
    });

    it("should read a text answer on the native rung where 'required' cannot be forced (answer tool under auto)", async () => {
      const scripted = new ScriptedChatModel([textStep(`Here it is: ${JSON.stringify(answer)}`)], {
        supportsResponseFormatWithTools: false,
        supportsStructuredOutput: false,
        toolChoiceSupport: ["auto"],
      });
      const { output } = await runCall(scripted, ask, mode);
      expect(scripted.calls[0]!.toolChoice).toBe("auto");
      expect(scripted.calls[0]!.tools!.map((tool) => tool.name)).toContain(answerName);
      expect(output.object).toEqual(answer);
      expect(output.toolCalls).toEqual([]);
    });

    it("should wrap a schema whose root is not an object in the answer tool, and unwrap the answer", async () => {
      const list = z.array(z.string());
      const scripted = new ScriptedChatModel([toolCallStep(answerName, { item: ["a", "b"] })], {
        supportsResponseFormatWithTools: false,
      });
      const { output } = await runCall(scripted, { ...ask, responseFormat: list }, mode);
      expect(scripted.calls[0]!.tools![2]!.parameters).toMatchObject({ required: ["item"] });
      expect(output.object).toEqual(["a", "b"]);
      expect(output.text).toBe('["a","b"]');
    });

    it("should ask for the object only under toolChoice 'none'", async () => {
      const scripted = new ScriptedChatModel([textStep(JSON.stringify(answer))]);
      const { output } = await runCall(scripted, { ...ask, toolChoice: "none" }, mode);
      expect(scripted.calls[0]!.toolChoice).toBe("none");
      expect(output.object).toEqual(answer);
      // Where the provider has no structured output, the schema is the one (forced) tool.
      const forced = new ScriptedChatModel([toolCallStep("response", answer)], { supportsStructuredOutput: false });
      const viaTool = await runCall(forced, { ...ask, toolChoice: "none" }, mode);
      expect(forced.calls[0]!.tools!.map((tool) => tool.name)).toEqual(["response"]);
      expect(forced.calls[0]!.toolChoice).toEqual({ type: "tool", name: "response" });
      expect(viaTool.output.object).toEqual(answer);
      expect(viaTool.output.toolCalls).toEqual([]);
    });

    it.each([
      ["required", "required" as const],
      ["one tool", lookup],
    ])("should refuse toolChoice %s with a responseFormat before any request", async (_name, toolChoice) => {
      for (const options of Object.values(rungs)) {
        const scripted = new ScriptedChatModel([textStep("never")], options);
        const { error } = await settleCall(scripted, { ...ask, toolChoice }, mode);
        expect(error).toBeInstanceOf(TypeError);
        expect(error!.message).toMatch(/toolChoice .* cannot be combined with responseFormat/);
        expect(error!.message).toMatch(/toolChoice "auto"/);
        expect(scripted.calls).toEqual([]);
      }
    });

    it("should refuse a tool named like the reserved answer, naming the fix", async () => {
      const clash = defineTool({ name: answerName, inputSchema: z.object({ text: z.string() }) });
      for (const options of Object.values(rungs)) {
        const scripted = new ScriptedChatModel([textStep("never")], options);
        const { error } = await settleCall(scripted, { ...ask, tools: [lookup, clash] }, mode);
        expect(error).toBeInstanceOf(TypeError);
        expect(error!.message).toContain(`'${answerName}'`);
        expect(error!.message).toMatch(/rename the tool/);
        expect(scripted.calls).toEqual([]);
      }
      // Without a responseFormat the name is the caller's to use.
      const free = new ScriptedChatModel([toolCallStep(answerName, { text: "x" })]);
      const { output } = await runCall(free, { messages: ask.messages, tools: [clash] }, mode);
      expect(output.toolCalls[0]!.name).toBe(answerName);
    });
  });

  it("should hold back the raw answer while it streams, and give the validated object's JSON once", async () => {
    const json = JSON.stringify({ name: answerName, parameters: answer });
    const scripted = new ScriptedChatModel([streamStep([json.slice(0, 20), json.slice(20)])], rungs["response-format"]);
    const { output, chunks } = await runCall(scripted, ask, "createStream");
    expect(chunks.filter((chunk) => chunk.type === "text-delta")).toEqual([
      { type: "text-delta", text: JSON.stringify(answer) },
    ]);
    expect(output.object).toEqual(answer);
  });
});
