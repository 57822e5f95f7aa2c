import { describe, expect, it } from "vitest";
import { z } from "zod";
import type { ChatModelChunk } from "../../../src/index.js";
import { ScriptedChatModel, streamStep, toolCallStep } from "../../../src/testing/index.js";
import { callModes, runCall, settleCall, user } from "../../support/run-modes.js";

const answer = z.object({ name: z.string() });
const textOf = (chunks: ChatModelChunk[]) =>
  chunks.map((chunk) => (chunk.type === "text-delta" ? chunk.text : "")).join("");

describe("a structured output carried as a forced tool (no JSON-schema response format)", () => {
  it("should stream the answer's JSON as text, the same text final() holds", async () => {
    const model = new ScriptedChatModel([toolCallStep("response", { name: "Ada" })], {
      supportsStructuredOutput: false,
    });
    const { output, chunks } = await runCall(
      model,
      { messages: [user("who?")], responseFormat: { type: "json-schema", schema: answer } },
      "createStream",
    );
    expect(output.meta.toolChoice).toBe("emulated");
    expect(output.text).toBe('{"name":"Ada"}');
    expect(textOf(chunks)).toBe(output.text);
    expect(chunks.some((chunk) => chunk.type === "tool-call" || chunk.type === "tool-call-delta")).toBe(false);
    expect(chunks.at(-1)).toMatchObject({ type: "finish", finishReason: "stop" });
  });

  it.each(callModes)(
    "should end with finish reason stop, not tool-calls with no tool call, through %s",
    async (mode) => {
      const model = new ScriptedChatModel([toolCallStep("response", { name: "Ada" })], {
        supportsStructuredOutput: false,
      });
      const { output } = await runCall(
        model,
        { messages: [user("who?")], responseFormat: { type: "json-schema", schema: answer } },
        mode,
      );
      expect(output.object).toEqual({ name: "Ada" });
      expect(output.toolCalls).toEqual([]);
      expect(output.finishReason).toBe("stop");
    },
  );
});

describe("a stream that breaks after some chunks", () => {
  it.each([
    ["text", ["The sky ", "is"]],
    ["a tool call", [{ type: "tool-call-delta", index: 0, id: "call_1", name: "weather", argsDelta: '{"ci' }]],
  ] as const)("should not present the partial %s as a finished reply (finish reason error)", async (_label, chunks) => {
    const model = new ScriptedChatModel([streamStep([...chunks], { error: { statusCode: 502 } })]);
    const { error } = await settleCall(model, { messages: [user("hi")] }, "createStream");
    expect(error).toMatchObject({ name: "ProviderError", statusCode: 502 });
    expect(error?.partialOutput?.finishReason).toBe("error");
  });

  it("should keep the finish reason the provider sent before the stream broke", async () => {
    const model = new ScriptedChatModel([
      streamStep(["cut by ", "length", { type: "finish", finishReason: "length" }], { error: { statusCode: 502 } }),
    ]);
    const { error } = await settleCall(model, { messages: [user("hi")] }, "createStream");
    expect(error?.partialOutput).toMatchObject({ text: "cut by length", finishReason: "length" });
  });
});
