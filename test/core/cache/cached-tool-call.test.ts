import Keyv from "keyv";
import { describe, expect, it } from "vitest";
import { z } from "zod";
import { KeyvCache, MemoryCache, defineTool, type ChatModelOutput, type ChatModelChunk } from "../../../src/index.js";
import { ScriptedChatModel, toolCallStep, toolCallsStep } from "../../../src/testing/index.js";
import { callModes, runCall, user } from "../../support/run-modes.js";

const ask = { messages: [user("Open the incident.")] };
// Two versions of one tool with one JSON Schema, and so one cache key: what zod makes of the arguments differs.
const plain = defineTool({ name: "lookup", inputSchema: z.object({ incident: z.string() }) });
const upper = defineTool({
  name: "lookup",
  inputSchema: z.object({ incident: z.string().transform((id) => id.toUpperCase()) }),
});
// A schema that makes a Date: JSON keeps its ISO string, which is the very string it was made from.
const dated = defineTool({
  name: "schedule",
  inputSchema: z.object({ at: z.string().transform((at) => new Date(at)) }),
});
const at = "2024-05-01T09:30:00.000Z";

/** The arguments of the call's tool call, as its output, its message and (streamed) its chunks hand them out. */
function argsHandedOut({ output, chunks }: { output: ChatModelOutput; chunks: ChatModelChunk[] }): unknown[] {
  const content = typeof output.message.content === "string" ? [] : output.message.content;
  return [
    output.toolCalls[0]!.args,
    content.find((part) => part.type === "tool-call")?.args,
    ...chunks.flatMap((chunk) => (chunk.type === "tool-call" ? [chunk.toolCall.args] : [])),
  ];
}

describe("ChatModel cache serving a tool call", () => {
  describe.each(callModes)("through %s", (mode) => {
    it("should give the arguments the schema of the call it serves makes, in either order", async () => {
      const model = new ScriptedChatModel([toolCallStep("lookup", { incident: "inc-7" })], {
        cache: new MemoryCache(),
      });
      await runCall(model, { ...ask, tools: [plain] }, mode);
      const served = await runCall(model, { ...ask, tools: [upper] }, mode);
      expect(served.output.meta.cacheHit).toBe(true);
      for (const args of argsHandedOut(served)) expect(args).toEqual({ incident: "INC-7" });
      const back = await runCall(model, { ...ask, tools: [plain] }, mode);
      for (const args of argsHandedOut(back)) expect(args).toEqual({ incident: "inc-7" });
    });

    it("should give the arguments the schema of a call in flight makes to the call sharing its request", async () => {
      const model = new ScriptedChatModel([toolCallStep("lookup", { incident: "inc-7" }, { delayMs: 20 })], {
        cache: new MemoryCache(),
      });
      const [first, second] = await Promise.all([
        runCall(model, { ...ask, tools: [upper] }, mode),
        runCall(model, { ...ask, tools: [plain] }, mode),
      ]);
      expect(first.output.toolCalls[0]!.args).toEqual({ incident: "INC-7" });
      expect(second.output.meta.cacheHit).toBe(true);
      for (const args of argsHandedOut(second)) expect(args).toEqual({ incident: "inc-7" });
      expect(model.calls).toHaveLength(1);
    });

    it.each([
      ["in memory", () => new MemoryCache()],
      ["through a store that keeps JSON", () => new KeyvCache(new Keyv())],
    ])("should serve arguments the schema made a Date of, as a Date, %s", async (_store, cache) => {
      const model = new ScriptedChatModel(
        [toolCallStep("schedule", { at }), toolCallStep("schedule", { at: "2030-01-01T00:00:00.000Z" })],
        {
          cache: cache(),
        },
      );
      const first = await runCall(model, { ...ask, tools: [dated] }, mode);
      expect(first.output.toolCalls[0]!.args).toEqual({ at: new Date(at) });
      const served = await runCall(model, { ...ask, tools: [dated] }, mode);
      expect(served.output.meta.cacheHit).toBe(true);
      for (const args of argsHandedOut(served)) expect(args).toEqual({ at: new Date(at) });
      expect(model.calls).toHaveLength(1);
    });

    it("should serve each of two calls that share an id with its own arguments", async () => {
      const step = toolCallsStep([
        { name: "lookup", args: { incident: "inc-7" }, id: "call_0" },
        { name: "lookup", args: { incident: "inc-8" }, id: "call_0" },
      ]);
      const model = new ScriptedChatModel([step], { cache: new MemoryCache(), allowParallelToolCalls: true });
      const first = await runCall(model, { ...ask, tools: [plain] }, mode);
      const served = await runCall(model, { ...ask, tools: [plain] }, mode);
      expect(served.output.meta.cacheHit).toBe(true);
      const handedOut = ({ output, chunks }: { output: ChatModelOutput; chunks: ChatModelChunk[] }) => ({
        toolCalls: output.toolCalls.map((call) => call.args),
        message:
          typeof output.message.content === "string"
            ? []
            : output.message.content.flatMap((part) => (part.type === "tool-call" ? [part.args] : [])),
        chunks: chunks.flatMap((chunk) => (chunk.type === "tool-call" ? [chunk.toolCall.args] : [])),
      });
      expect(handedOut(served)).toEqual(handedOut(first));
      expect(handedOut(served).message).toEqual([{ incident: "inc-7" }, { incident: "inc-8" }]);
    });
  });
});
