import { beforeEach, describe, expect, it, vi } from "vitest";

// The call pipeline loads on the first call a process makes; every test here imports keelson afresh
// (vi.resetModules), so each one's first call is a process's first call.
async function freshKeelson() {
  vi.resetModules();
  const { ScriptedChatModel, textStep, toolCallStep } = await import("../../src/testing/index.js");
  const { defineTool } = await import("../../src/index.js");
  return { ScriptedChatModel, textStep, toolCallStep, defineTool };
}

function recordEvents(emitter: { on(event: string, listener: (payload: unknown) => void): unknown }): string[] {
  const events: string[] = [];
  for (const event of ["start", "success", "error", "finish"]) emitter.on(event, () => events.push(event));
  return events;
}

describe("a process's first call (the pipeline still loading)", () => {
  beforeEach(() => {
    vi.resetModules();
  });

  it("should stream every chunk and settle the call once", async () => {
    const { ScriptedChatModel, textStep } = await freshKeelson();
    const model = new ScriptedChatModel([textStep("hello there")]);
    const events = recordEvents(model.emitter);
    const stream = model.createStream({ messages: [{ role: "user", content: "hi" }] });
    let text = "";
    for await (const chunk of stream) if (chunk.type === "text-delta") text += chunk.text;
    expect(text).toBe("hello there");
    expect((await stream.final()).text).toBe("hello there");
    expect(events).toEqual(["start", "success", "finish"]);
  });

  it("should fail the stream's first read on bad input, with the events of a failed call", async () => {
    const { ScriptedChatModel } = await freshKeelson();
    const model = new ScriptedChatModel([]);
    const events = recordEvents(model.emitter);
    const stream = model.createStream({ messages: [] });
    await expect(stream.final()).rejects.toThrow("input.messages must be a non-empty array");
    expect(events).toEqual(["start", "error", "finish"]);
  });

  it("should end a stream left after its first chunk as closed by its consumer", async () => {
    const { ScriptedChatModel, textStep } = await freshKeelson();
    const model = new ScriptedChatModel([textStep("one two three")]);
    const events = recordEvents(model.emitter);
    const stream = model.createStream({ messages: [{ role: "user", content: "hi" }] });
    for await (const chunk of stream) {
      expect(chunk.type).toBe("text-delta");
      break;
    }
    await expect(stream.final()).rejects.toMatchObject({ name: "AbortError" });
    expect(events).toEqual(["start", "error", "finish"]);
  });

  it("should settle a stream its consumer leaves on the finish chunk as a success", async () => {
    const { ScriptedChatModel, textStep } = await freshKeelson();
    const model = new ScriptedChatModel([textStep("one two three")]);
    const events = recordEvents(model.emitter);
    const stream = model.createStream({ messages: [{ role: "user", content: "hi" }] });
    for await (const chunk of stream) if (chunk.type === "finish") break;
    expect((await stream.final()).text).toBe("one two three");
    expect(events).toEqual(["start", "success", "finish"]);
  });

  it("should answer a plain call with a validated tool call", async () => {
    const { ScriptedChatModel, toolCallStep, defineTool } = await freshKeelson();
    const weather = defineTool({
      name: "weather",
      inputSchema: { type: "object", properties: { city: { type: "string" } }, required: ["city"] },
    });
    const model = new ScriptedChatModel([toolCallStep("weather", { city: "Paris" })]);
    const events = recordEvents(model.emitter);
    const output = await model.create({
      messages: [{ role: "user", content: "weather?" }],
      tools: [weather],
      toolChoice: "required",
    });
    expect(output.toolCalls).toEqual([
      { type: "tool-call", id: expect.stringMatching(/^call_[a-z0-9]{8}$/), name: "weather", args: { city: "Paris" } },
    ]);
    expect(events).toEqual(["start", "success", "finish"]);
  });
});
