import { describe, expect, it } from "vitest";
import { replyFor, replyOf, useBedrockLoopback } from "../../support/bedrock-loopback.js";
import { callModes, runCall } from "../../support/run-modes.js";

/**
 * Bedrock's `inputTokens` counts only the input that was neither read from nor written to the
 * prompt cache (AWS bills those three at three rates); `cacheReadInputTokens` and
 * `cacheWriteInputTokens` come on top, and `totalTokens` counts all of them with the output.
 * keelson's `inputTokens` is the whole prompt with `cachedInputTokens` a part of it, as OpenAI's
 * `prompt_tokens` and OpenTelemetry's `gen_ai.usage.input_tokens` are.
 */
const cachedReply = (usage: Record<string, number>) =>
  replyOf({
    output: { message: { role: "assistant", content: [{ text: "INC-001 is an outage of auth-api." }] } },
    stopReason: "end_turn",
    usage,
  });

describe("BedrockChatModel usage with prompt caching", () => {
  const bedrock = useBedrockLoopback();

  describe.each(callModes)("through %s", (mode) => {
    it("should count tokens read from the cache in inputTokens, with cachedInputTokens a part of them", async () => {
      bedrock.server.handle(
        replyFor(
          cachedReply({
            inputTokens: 12,
            outputTokens: 50,
            totalTokens: 1862,
            cacheReadInputTokens: 1800,
            cacheWriteInputTokens: 0,
          }),
          mode,
        ),
      );
      const { output } = await runCall(
        bedrock.model("us.anthropic.claude-3-7-sonnet-20250219-v1:0"),
        { messages: [{ role: "user", content: "What is INC-001?" }] },
        mode,
      );

      expect(output.usage).toEqual({
        inputTokens: 1812,
        outputTokens: 50,
        totalTokens: 1862,
        cachedInputTokens: 1800,
        cacheWriteInputTokens: 0,
        costUsd: expect.any(Number),
      });
    });

    it("should count tokens written to the cache in inputTokens, as cacheWriteInputTokens", async () => {
      bedrock.server.handle(
        replyFor(
          cachedReply({
            inputTokens: 12,
            outputTokens: 50,
            totalTokens: 962,
            cacheReadInputTokens: 0,
            cacheWriteInputTokens: 900,
          }),
          mode,
        ),
      );
      const { output } = await runCall(
        bedrock.model("us.anthropic.claude-3-7-sonnet-20250219-v1:0"),
        { messages: [{ role: "user", content: "What is INC-001?" }] },
        mode,
      );

      expect(output.usage).toEqual({
        inputTokens: 912,
        outputTokens: 50,
        totalTokens: 962,
        cachedInputTokens: 0,
        cacheWriteInputTokens: 900,
        costUsd: expect.any(Number),
      });
      expect(output.usage.inputTokens + output.usage.outputTokens).toBe(output.usage.totalTokens);
    });
  });
});
