import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import type { Message, ProviderOutput } from "../../../src/index.js";
import type { Cassette } from "../../../src/testing/record-replay/cassette.js";
import { RecordingChatModel, ReplayChatModel } from "../../../src/testing/index.js";
import { replyFor, replyOf, useBedrockLoopback } from "../../support/bedrock-loopback.js";
import { callModes, runCall } from "../../support/run-modes.js";

const ask: Message[] = [{ role: "user", content: "Think, then answer." }];
// Claude on Bedrock: a signed block, a redacted block, a second signed block, then the text.
const converse = {
  output: {
    message: {
      role: "assistant",
      content: [
        { reasoningContent: { reasoningText: { text: "First I look.", signature: "sig-one" } } },
        { reasoningContent: { redactedContent: Buffer.from("encrypted-thinking").toString("base64") } },
        { reasoningContent: { reasoningText: { text: "Then I answer.", signature: "sig-two" } } },
        { text: "Paris." },
      ],
    },
  },
  stopReason: "end_turn",
  usage: { inputTokens: 10, outputTokens: 5, totalTokens: 15 },
};
const blocks = [
  { type: "reasoning", text: "First I look.", signature: "sig-one" },
  { type: "reasoning", text: "", redactedData: Buffer.from("encrypted-thinking").toString("base64") },
  { type: "reasoning", text: "Then I answer.", signature: "sig-two" },
  { type: "text", text: "Paris." },
];

let folder: string;
beforeEach(() => {
  folder = mkdtempSync(join(tmpdir(), "keelson-cassettes-"));
});
afterEach(() => rmSync(folder, { recursive: true, force: true }));

describe("ReplayChatModel with Bedrock reasoning blocks", () => {
  const bedrock = useBedrockLoopback();

  describe.each(callModes)("recorded through %s", (recordMode) => {
    it.each(callModes)("should replay every block, signature and redactedData through %s", async (replayMode) => {
      bedrock.server.handle(replyFor(replyOf(converse), recordMode));
      const cassette = join(folder, "bedrock-reasoning.json");
      const live = bedrock.model("us.anthropic.claude-3-7-sonnet-20250219-v1:0");
      const recorded = await runCall(new RecordingChatModel(live, { cassette }), { messages: ask }, recordMode);
      expect(recorded.output.message.content).toEqual(blocks);

      const replayed = await runCall(new ReplayChatModel(cassette), { messages: ask }, replayMode);
      expect(replayed.output.message.content).toEqual(blocks);
    });
  });
});

/** A cassette of one whole recorded output (no chunks) for `ask`, from a Bedrock Claude model. */
function wholeOutputCassette(output: ProviderOutput): Cassette {
  return {
    version: 1,
    providerId: "bedrock",
    modelId: "claude",
    profile: {
      toolChoiceSupport: [],
      supportsToolCalling: true,
      supportsStructuredOutput: false,
      supportsTopLevelUnion: false,
      strictResponseFormat: false,
    },
    interactions: [{ input: { messages: ask, parameters: {} }, output }],
  };
}

describe("ReplayChatModel with one signed reasoning block", () => {
  it("should keep the block's signature when a whole recorded output is replayed through createStream", async () => {
    const cassette = wholeOutputCassette({
      text: "Paris.",
      reasoning: "I look.",
      reasoningSignature: "sig-one",
      finishReason: "stop",
    });
    const { output } = await runCall(new ReplayChatModel(cassette), { messages: ask }, "createStream");
    expect(output.message.content).toEqual([
      { type: "reasoning", text: "I look.", signature: "sig-one" },
      { type: "text", text: "Paris." },
    ]);
  });
});

describe("ReplayChatModel raw response", () => {
  it("should give a whole recorded output's raw response when replayed through createStream", async () => {
    const cassette = wholeOutputCassette({ text: "Paris.", finishReason: "stop", raw: { requestId: "r-1" } });
    const { output } = await runCall(new ReplayChatModel(cassette), { messages: ask }, "createStream");
    expect(output.raw).toEqual({ requestId: "r-1" });
  });
});
