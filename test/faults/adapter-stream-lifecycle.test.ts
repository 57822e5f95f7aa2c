import { describe, expect, it } from "vitest";
import { ChatModel, MemoryCache } from "../../src/index.js";
import type { ChatModelChunk, ChatModelOptions, ProviderOutput } from "../../src/index.js";

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

/** An adapter streaming three chunks, recording when its stream is let go of. */
class ClosingModel extends ChatModel {
  readonly providerId = "closing";
  readonly log: string[] = [];
  constructor(options: ChatModelOptions = {}) {
    super("closing", options, { toolChoiceSupport: [], supportsStructuredOutput: false, supportsTopLevelUnion: false });
  }
  protected override _create(): Promise<ProviderOutput> {
    throw new Error("not used");
  }
  protected override async *_createStream(): AsyncIterable<ChatModelChunk> {
    try {
      for (const text of ["a", "b", "c"]) yield { type: "text-delta", text };
      yield { type: "finish", finishReason: "stop" };
    } finally {
      this.log.push("stream closed");
    }
  }
}

describe("a consumer that stops reading early", () => {
  it.each([
    ["without a cache", {}],
    ["with a cache", { cache: new MemoryCache() }],
  ])("should have the adapter's stream closed at once, %s", async (_label, options) => {
    const model = new ClosingModel(options);
    for await (const chunk of model.createStream({ messages: [{ role: "user", content: "hi" }] })) {
      expect(chunk).toEqual({ type: "text-delta", text: "a" });
      break;
    }
    expect(model.log).toEqual(["stream closed"]);
  });
});
