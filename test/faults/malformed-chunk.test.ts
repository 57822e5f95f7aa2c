import { describe, expect, it } from "vitest";
import { ChatModel } from "../../src/index.js";
import type { ChatModelChunk, ProviderOutput } from "../../src/index.js";

/** An outside adapter that yields a chunk the base class cannot take, and records how its stream was left. */
class BrokenChunkModel extends ChatModel {
  readonly providerId = "broken";
  readonly log: string[] = [];
  constructor() {
    super("broken", {}, { toolChoiceSupport: [], supportsStructuredOutput: false, supportsTopLevelUnion: false });
  }
  protected override _create(): Promise<ProviderOutput> {
    throw new Error("not used");
  }
  protected override async *_createStream(): AsyncIterable<ChatModelChunk> {
    try {
      yield { type: "text-delta", text: "Hel" };
      yield { type: "tool-call", toolCall: null } as unknown as ChatModelChunk;
      yield { type: "finish", finishReason: "stop" };
    } finally {
      this.log.push("stream closed");
    }
  }
}

describe("a malformed chunk from an adapter", () => {
  it("should fail the stream with the error after the chunks before it, and close the adapter's stream", async () => {
    const model = new BrokenChunkModel();
    const errors: Error[] = [];
    model.emitter.on("error", ({ error }) => errors.push(error));
    const stream = model.createStream({ messages: [{ role: "user", content: "hi" }] });
    const seen: ChatModelChunk[] = [];
    await expect(
      (async () => {
        for await (const chunk of stream) seen.push(chunk);
      })(),
    ).rejects.toBeInstanceOf(TypeError);
    await expect(stream.final()).rejects.toBeInstanceOf(TypeError);
    expect(seen).toEqual([{ type: "text-delta", text: "Hel" }]);
    expect(model.log).toEqual(["stream closed"]);
    expect(errors).toHaveLength(1);
  });
});
