import { describe, expect, it } from "vitest";
import { convertToBedrockMessages } from "../../../src/adapters/bedrock/convert-to-bedrock-messages.js";

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
