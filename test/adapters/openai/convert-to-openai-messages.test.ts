import { describe, expect, it } from "vitest";
import { convertFromOpenAIMessages, convertToOpenAIMessages } from "../../../src/adapters/openai/index.js";
import type { Message } from "../../../src/index.js";

describe("convertToOpenAIMessages", () => {
  it("should send a tool result's text in the tool message and its images in a user message right after", () => {
    const messages = convertToOpenAIMessages([
      { role: "user", content: "Chart?" },
      { role: "assistant", content: [{ type: "tool-call", id: "c1", name: "chart", args: {} }] },
      {
        role: "tool",
        toolCallId: "c1",
        toolName: "chart",
        content: [
          { type: "text", text: "Sales chart" },
          { type: "image", image: "iVBORw0KGgo=", mediaType: "image/png" },
        ],
      },
    ]);
    expect(messages.slice(2)).toEqual([
      { role: "tool", tool_call_id: "c1", content: "Sales chart" },
      {
        role: "user",
        content: [
          { type: "text", text: "[images and files returned by tool chart (c1)]" },
          { type: "image_url", image_url: { url: "data:image/png;base64,iVBORw0KGgo=" } },
        ],
      },
    ]);
  });

  it("should send images as image_url parts, from URLs and from base64 data", () => {
    const [message] = convertToOpenAIMessages([
      {
        role: "user",
        content: [
          { type: "text", text: "What is in these?" },
          { type: "image", image: "https://example.com/cat.png" },
          { type: "image", image: "iVBORw0KGgo=", mediaType: "image/png" },
          { type: "image", image: "data:image/jpeg;base64,/9j/4AAQ" },
        ],
      },
    ]);
    expect(message).toEqual({
      role: "user",
      content: [
        { type: "text", text: "What is in these?" },
        { type: "image_url", image_url: { url: "https://example.com/cat.png" } },
        { type: "image_url", image_url: { url: "data:image/png;base64,iVBORw0KGgo=" } },
        { type: "image_url", image_url: { url: "data:image/jpeg;base64,/9j/4AAQ" } },
      ],
    });
  });

  it("should refuse base64 image data without a media type", () => {
    expect(() =>
      convertToOpenAIMessages([{ role: "user", content: [{ type: "image", image: "iVBORw0KGgo=" }] }]),
    ).toThrow(TypeError);
  });

  it("should send a PDF as an inline file and wav/mp3 as input_audio", () => {
    const [message] = convertToOpenAIMessages([
      {
        role: "user",
        content: [
          { type: "file", data: "JVBERi0x", mediaType: "application/pdf", filename: "report.pdf" },
          { type: "file", data: "UklGRg==", mediaType: "audio/wav" },
        ],
      },
    ]);
    expect(message).toEqual({
      role: "user",
      content: [
        { type: "file", file: { file_data: "data:application/pdf;base64,JVBERi0x", filename: "report.pdf" } },
        { type: "input_audio", input_audio: { data: "UklGRg==", format: "wav" } },
      ],
    });
  });

  it("should refuse a non-image file given by URL, saying to pass its data", () => {
    expect(() =>
      convertToOpenAIMessages([
        { role: "user", content: [{ type: "file", data: "https://example.com/a.pdf", mediaType: "application/pdf" }] },
      ]),
    ).toThrow(/base64 data, not URLs/);
  });

  it("should send an assistant message with only tool calls with content null", () => {
    const [message] = convertToOpenAIMessages([
      { role: "assistant", content: [{ type: "tool-call", id: "call_a", name: "lookup", args: { q: 1 } }] },
    ]);
    expect(message).toEqual({
      role: "assistant",
      content: null,
      tool_calls: [{ id: "call_a", type: "function", function: { name: "lookup", arguments: '{"q":1}' } }],
    });
  });
});

describe("convertFromOpenAIMessages", () => {
  it("should give back the keelson conversation it was made from", () => {
    const conversation: Message[] = [
      { role: "system", content: "Be brief." },
      {
        role: "user",
        content: [
          { type: "text", text: "Look this up" },
          { type: "image", image: "https://example.com/x.png" },
        ],
      },
      {
        role: "assistant",
        content: [
          { type: "text", text: "Sure." },
          { type: "tool-call", id: "call_a", name: "lookup", args: { q: "x" } },
          { type: "tool-call", id: "call_b", name: "fetch", args: {} },
        ],
      },
      { role: "tool", toolCallId: "call_a", toolName: "lookup", content: "found" },
      { role: "tool", toolCallId: "call_b", toolName: "fetch", content: "fetched" },
      { role: "assistant", content: "Done." },
    ];
    expect(convertFromOpenAIMessages(convertToOpenAIMessages(conversation))).toEqual(conversation);
  });
});
