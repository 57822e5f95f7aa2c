import { describe, expect, it } from "vitest";
import { MemoryCache, type ChatModelChunk } from "../../../src/index.js";
import { ScriptedChatModel, streamStep } from "../../../src/testing/index.js";
import { user } from "../../support/run-modes.js";

// Claude (Bedrock) reasons in blocks, each signed or redacted, and wants them back as they came: a
// stream served from the cache hands them out as the live stream did, whichever call stored it.
describe("ChatModel cache replaying reasoning blocks", () => {
  it("should stream each stored block with its signature or redacted data when create stored the answer", async () => {
    const live: ChatModelChunk[] = [
      { type: "reasoning-delta", text: "First I look." },
      { type: "reasoning-delta", text: "", signature: "sig-1" },
      { type: "reasoning-delta", text: "", redactedData: "ZW5jcnlwdGVk" },
      { type: "text-delta", text: "Done." },
      { type: "finish", finishReason: "stop" },
    ];
    const model = new ScriptedChatModel([streamStep(live)], { cache: new MemoryCache() });
    const stored = await model.create({ messages: [user("Think.")] });

    const reasoning: ChatModelChunk[] = [];
    const stream = model.createStream({ messages: [user("Think.")] });
    for await (const chunk of stream) if (chunk.type === "reasoning-delta") reasoning.push(chunk);
    const replayed = await stream.final();

    expect(replayed.meta.cacheHit).toBe(true);
    expect(reasoning).toEqual([
      { type: "reasoning-delta", text: "First I look.", signature: "sig-1" },
      { type: "reasoning-delta", text: "", redactedData: "ZW5jcnlwdGVk" },
    ]);
    expect(replayed.message).toEqual(stored.message);
  });
});
