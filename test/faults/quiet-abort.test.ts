import { describe, expect, it } from "vitest";
import { ChatModel } from "../../src/index.js";
import type { ChatModelChunk, ProviderInput, ProviderOutput, RunContext } from "../../src/index.js";

/** An adapter whose SDK ends a stream quietly when the signal aborts (as the openai SDK does). */
class QuietOnAbortModel extends ChatModel {
  readonly providerId = "quiet";
  constructor() {
    super("quiet", {}, { toolChoiceSupport: [], supportsStructuredOutput: false, supportsTopLevelUnion: false });
  }
  protected override _create(): Promise<ProviderOutput> {
    throw new Error("not used");
  }
  protected override async *_createStream(_input: ProviderInput, context: RunContext): AsyncIterable<ChatModelChunk> {
    yield { type: "text-delta", text: "Hel" };
    if (!context.signal.aborted)
      await new Promise((resolve) => context.signal.addEventListener("abort", resolve, { once: true }));
    yield { type: "finish", finishReason: "stop" };
  }
}

describe("ChatModel", () => {
  it("should end a stream whose adapter stops quietly on abort with AbortError, not with the partial text as an answer", async () => {
    const controller = new AbortController();
    const stream = new QuietOnAbortModel().createStream({
      messages: [{ role: "user", content: "hi" }],
      signal: controller.signal,
    });
    const seen: ChatModelChunk[] = [];
    const reading = (async () => {
      for await (const chunk of stream) {
        seen.push(chunk);
        controller.abort();
      }
    })();
    await expect(reading).rejects.toMatchObject({ name: "AbortError" });
    await expect(stream.final()).rejects.toMatchObject({ name: "AbortError" });
    expect(seen).toEqual([{ type: "text-delta", text: "Hel" }]);
  });
});
