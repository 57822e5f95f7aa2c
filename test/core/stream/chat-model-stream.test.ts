import { describe, expect, it } from "vitest";
import { MemoryCache, defineTool } from "../../../src/index.js";
import type { ChatModelChunk } from "../../../src/index.js";
import { ScriptedChatModel, textStep, toolCallStep } from "../../../src/testing/index.js";

const user = (content: string) => ({ role: "user" as const, content });
const weather = defineTool({
  name: "weather",
  inputSchema: { type: "object", properties: { city: { type: "string" } }, required: ["city"] },
});

function recordEvents(model: ScriptedChatModel): string[] {
  const events: string[] = [];
  model.emitter.on("success", () => events.push("success"));
  model.emitter.on("error", ({ error }) => events.push(`error:${error.name}`));
  model.emitter.on("finish", () => events.push("finish"));
  return events;
}

describe("ChatModelStream", () => {
  describe.each([
    ["without a cache", () => ({})],
    ["with a cache", () => ({ cache: new MemoryCache() })],
  ])("a consumer that stops on the finish chunk, %s", (_label, options) => {
    it("should settle the call as a success: final() resolves, success then finish are emitted", async () => {
      const model = new ScriptedChatModel([textStep("hello there")], options());
      const events = recordEvents(model);
      const stream = model.createStream({ messages: [user("hi")] });
      const seen: ChatModelChunk["type"][] = [];
      for await (const chunk of stream) {
        seen.push(chunk.type);
        if (chunk.type === "finish") break; // the reply is complete: nothing comes after a finish
      }
      expect(seen).toEqual(["text-delta", "text-delta", "finish"]);
      const output = await stream.final();
      expect(output.text).toBe("hello there");
      expect(output.finishReason).toBe("stop");
      expect(events).toEqual(["success", "finish"]);
    });
  });

  it("should store a reply whose consumer stopped on the finish chunk in the cache", async () => {
    const model = new ScriptedChatModel([textStep("hello there")], { cache: new MemoryCache() });
    for await (const chunk of model.createStream({ messages: [user("hi")] })) if (chunk.type === "finish") break;
    // The script has no second step: the answer must come from the cache.
    expect((await model.create({ messages: [user("hi")] })).text).toBe("hello there");
  });
});

describe("final()", () => {
  it.each([
    ["a text reply", () => textStep("Streaming works the same way.")],
    ["a tool call", () => toolCallStep("weather", { city: "Oslo" })],
  ])("should equal what create() gives for the same scripted reply: %s", async (_label, step) => {
    const input = { messages: [user("hi")], tools: [weather] };
    const created = await new ScriptedChatModel([step()]).create(input);
    const streamed = await new ScriptedChatModel([step()]).createStream(input).final();
    const withoutIds = (output: typeof created) =>
      JSON.parse(JSON.stringify(output).replace(/call_[a-z0-9]{8}/g, "call_id"));
    expect(withoutIds(streamed)).toEqual(withoutIds(created));
  });
});
