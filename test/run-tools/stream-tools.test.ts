import { describe, expect, it } from "vitest";
import { z } from "zod";
import type { Message, RunPart } from "../../src/index.js";
import { defineTool, streamTools } from "../../src/index.js";
import { ScriptedChatModel, textStep, toolCallStep, toolCallsStep } from "../../src/testing/index.js";

const messages: Message[] = [{ role: "user", content: "Check INC-001 and INC-002." }];
const delays: Record<string, number> = { "INC-001": 40, "INC-002": 1 };
const lookup = defineTool({
  name: "lookup_incident",
  inputSchema: z.object({ incident_id: z.string() }),
  execute: async ({ incident_id }) => {
    await new Promise((resolve) => setTimeout(resolve, delays[String(incident_id)] ?? 1));
    return `${String(incident_id)}: open`;
  },
});

/** A part as a short label, to compare orders. */
function label(part: RunPart): string {
  switch (part.type) {
    case "step-start":
      return `step-start ${part.stepIndex}`;
    case "step-finish":
      return `step-finish ${part.step.stepIndex}`;
    case "tool-result":
      return `tool-result ${part.toolResult.toolCall.id}`;
    case "text-delta":
      return `text ${part.text}`;
    default:
      return part.type;
  }
}

describe("streamTools", () => {
  it("should yield each step's chunks, then its tool results as they settle, then the step", async () => {
    const model = new ScriptedChatModel(
      [
        toolCallsStep([
          { name: "lookup_incident", args: { incident_id: "INC-001" }, id: "slow" },
          { name: "lookup_incident", args: { incident_id: "INC-002" }, id: "fast" },
        ]),
        textStep("Both are open."),
      ],
      { allowParallelToolCalls: true },
    );
    const stream = streamTools({ model, messages, tools: [lookup] });
    const labels: string[] = [];
    for await (const part of stream) labels.push(label(part));
    const run = await stream.final();

    const firstFinish = labels.indexOf("step-finish 0");
    expect(labels[0]).toBe("step-start 0");
    // The faster tool's result comes first; the transcript keeps call order.
    expect(labels.slice(firstFinish - 2, firstFinish)).toEqual(["tool-result fast", "tool-result slow"]);
    expect(labels.slice(firstFinish + 1)).toEqual([
      "step-start 1",
      "text Both ",
      "text are ",
      "text open.",
      "finish",
      "step-finish 1",
    ]);
    expect(labels.filter((entry) => entry === "tool-call")).toHaveLength(2);
    expect(
      run.messages.slice(2).map((message) => (message.role === "tool" ? message.toolCallId : message.role)),
    ).toEqual(["slow", "fast", "assistant"]);
    expect(run.text).toBe("Both are open.");
  });

  it("should run when only final() is awaited", async () => {
    const model = new ScriptedChatModel([toolCallStep("lookup_incident", { incident_id: "INC-002" }), textStep("ok")]);
    const run = await streamTools({ model, messages, tools: [lookup] }).final();
    expect(run.steps).toHaveLength(2);
    expect(run.messages.at(-2)).toMatchObject({ role: "tool", content: "INC-002: open" });
  });

  it("should refuse a second iteration with a TypeError", async () => {
    const model = new ScriptedChatModel([textStep("ok")]);
    const stream = streamTools({ model, messages, tools: [] });
    await stream.final();
    expect(() => stream[Symbol.asyncIterator]()).toThrow(/can be iterated once/);
  });

  it("should reject final() and the iteration with the RunError of a failed run", async () => {
    const model = new ScriptedChatModel([toolCallStep("lookup_incident", { incident_id: "INC-002" })]);
    const stream = streamTools({ model, messages, tools: [lookup], maxSteps: 1 });
    await expect(
      (async () => {
        for await (const _part of stream) {
          // read to the end
        }
      })(),
    ).rejects.toMatchObject({ reason: "max-steps" });
    await expect(stream.final()).rejects.toMatchObject({ name: "RunError", reason: "max-steps" });
  });
});
