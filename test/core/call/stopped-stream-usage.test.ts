import { describe, expect, it } from "vitest";
import { ScriptedChatModel, textStep } from "../../../src/testing/index.js";
import { user } from "../../support/run-modes.js";

describe("ChatModel.createStream stopped by a newToken listener", () => {
  it("should sum the usage of the attempts re-asked before it", async () => {
    const model = new ScriptedChatModel([
      textStep("", { usage: { inputTokens: 100, outputTokens: 50 } }),
      textStep("hello there world", { usage: { inputTokens: 7, outputTokens: 3 } }),
    ]);
    let tokens = 0;
    model.emitter.on("newToken", (event) => {
      if (++tokens === 1) event.abort();
    });
    const stream = model.createStream({ messages: [user("q")] });
    for await (const _chunk of stream) void _chunk;
    const output = await stream.final();
    expect(output.meta.attempts).toHaveLength(2);
    expect(output.meta.attempts[0]!.usage.totalTokens).toBe(150);
    // The rejected attempt's 150 tokens were paid for: output.usage sums every attempt.
    expect(output.usage.totalTokens).toBe(
      output.meta.attempts.reduce((sum, attempt) => sum + attempt.usage.totalTokens, 0),
    );
    expect(output.usage.inputTokens).toBeGreaterThanOrEqual(100);
  });
});
