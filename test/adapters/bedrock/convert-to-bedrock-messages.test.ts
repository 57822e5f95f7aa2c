import { describe, expect, it } from "vitest";
import { convertToBedrockMessages } from "../../../src/adapters/bedrock/convert-to-bedrock-messages.js";
import type { Message, ReasoningPart } from "../../../src/core/messages.js";

const withTools = { toolBlocks: true };

describe("convertToBedrockMessages", () => {
  it("should send files as named documents and images from data: URLs and s3:// URIs", () => {
    const { messages } = convertToBedrockMessages(
      [
        {
          role: "user",
          content: [
            { type: "text", text: "Read these." },
            { type: "file", data: "JVBERi0=", mediaType: "application/pdf", filename: "post-mortem_INC-001.v2.pdf" },
            { type: "image", image: "data:image/jpeg;base64,/9j/4A==" },
            { type: "image", image: "s3://bucket/graphs/latency.png" },
          ],
        },
      ],
      withTools,
    );
    const content = messages[0]!.content!;
    expect(content[1]).toEqual({
      document: { format: "pdf", name: "post-mortem INC-001 v2", source: { bytes: Buffer.from("JVBERi0=", "base64") } },
    });
    expect(content[2]).toEqual({ image: { format: "jpeg", source: { bytes: Buffer.from("/9j/4A==", "base64") } } });
    expect(content[3]).toEqual({
      image: { format: "png", source: { s3Location: { uri: "s3://bucket/graphs/latency.png" } } },
    });
  });

  it("should refuse an http image URL, which Bedrock cannot fetch, with an UnsupportedFeatureError that says what to pass", () => {
    expect(() =>
      convertToBedrockMessages(
        [{ role: "user", content: [{ type: "image", image: "https://example.com/a.png" }] }],
        withTools,
      ),
    ).toThrow(/base64 data, a data: URL or an s3:\/\/ URI/);
  });

  it("should drop blank text and empty turns, which Converse refuses", () => {
    const { system, messages } = convertToBedrockMessages(
      [
        { role: "system", content: "  " },
        { role: "user", content: "hi" },
        { role: "assistant", content: "" },
        { role: "user", content: "still there?" },
      ],
      withTools,
    );
    expect(system).toEqual([]);
    expect(messages).toEqual([{ role: "user", content: [{ text: "hi" }, { text: "still there?" }] }]);
  });
});

describe("convertToBedrockMessages: reasoning goes back only to the provider that signed it", () => {
  const turn = (...reasoning: ReasoningPart[]): Message[] => [
    { role: "user", content: "Where is INC-1?" },
    { role: "assistant", content: [...reasoning, { type: "text", text: "In Oslo." }] },
    { role: "user", content: "And INC-2?" },
  ];

  it("should send Claude's signed and redacted blocks back as they came", () => {
    const { messages } = convertToBedrockMessages(
      turn(
        { type: "reasoning", text: "Look it up.", signature: "claude-signature" },
        { type: "reasoning", text: "", redactedData: Buffer.from("encrypted").toString("base64") },
      ),
      withTools,
    );
    expect(messages[1]!.content).toEqual([
      { reasoningContent: { reasoningText: { text: "Look it up.", signature: "claude-signature" } } },
      { reasoningContent: { redactedContent: Buffer.from("encrypted") } },
      { text: "In Oslo." },
    ]);
  });

  it("should leave out an OpenAI Responses reasoning item: its encrypted content is no Claude signature", () => {
    const { messages } = convertToBedrockMessages(
      turn({ type: "reasoning", text: "Summary.", id: "rs_123", signature: "gAAAAB-openai-encrypted-content" }),
      withTools,
    );
    expect(messages[1]!.content).toEqual([{ text: "In Oslo." }]);
    expect(JSON.stringify(messages)).not.toContain("gAAAAB-openai-encrypted-content");
  });

  it("should leave out unsigned reasoning (a local model's), which Bedrock cannot verify", () => {
    const { messages } = convertToBedrockMessages(turn({ type: "reasoning", text: "Thinking aloud." }), withTools);
    expect(messages[1]!.content).toEqual([{ text: "In Oslo." }]);
  });
});
