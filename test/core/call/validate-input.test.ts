import { describe, expect, it } from "vitest";
import type { Message } from "../../../src/index.js";
import { ScriptedChatModel, textStep } from "../../../src/testing/index.js";
import { callModes, runCall, user } from "../../support/run-modes.js";

const toolCall = {
  role: "assistant",
  content: [{ type: "tool-call", id: "call_1", name: "weather", args: { city: "Oslo" } }],
} as const;

// Before: a tool result with array content passed this check and reached the adapters as it was
// (Bedrock's toolResult got { text: [ ... ] }, Ollama's "content" an array); parts were not checked
// at all, so a malformed one crashed inside an adapter or became a provider's 400.
describe("validateInput", () => {
  describe.each(callModes)("through %s", (mode) => {
    it.each([
      ["an object", { temperature: 12 }],
      ["a number", 12],
    ])("should refuse a tool result whose content is %s, saying to pass a string", async (_name, content) => {
      const model = new ScriptedChatModel([textStep("ok")]);
      const messages = [
        user("Weather?"),
        toolCall,
        { role: "tool", toolCallId: "call_1", toolName: "weather", content },
      ] as unknown as Message[];
      await expect(runCall(model, { messages }, mode)).rejects.toThrow(/messages\[2\].*string/);
      expect(model.calls).toHaveLength(0);
    });

    it("should take a tool result of text and image parts", async () => {
      const model = new ScriptedChatModel([textStep("ok")]);
      const content = [
        { type: "text", text: "12°C" },
        { type: "image", image: "iVBORw0KGgo=", mediaType: "image/png" },
      ];
      const messages = [
        user("Weather?"),
        toolCall,
        { role: "tool", toolCallId: "call_1", toolName: "weather", content },
      ];
      await runCall(model, { messages: messages as Message[] }, mode);
      expect(model.calls[0]!.messages[2]).toEqual(messages[2]);
    });

    it("should refuse a tool result part that is no text, image or file part, naming it", async () => {
      const model = new ScriptedChatModel([textStep("ok")]);
      const content = [{ type: "tool-call", id: "x", name: "weather", args: {} }];
      const messages = [
        user("Weather?"),
        toolCall,
        { role: "tool", toolCallId: "call_1", toolName: "weather", content },
      ];
      await expect(runCall(model, { messages: messages as Message[] }, mode)).rejects.toThrow(
        /messages\[2\]\.content\[0\] is not a tool content part/,
      );
      expect(model.calls).toHaveLength(0);
    });

    it.each([
      [
        "an OpenAI-style image part",
        { role: "user", content: [{ type: "image_url", image_url: { url: "https://x/y.png" } }] },
        /messages\[0\]\.content\[0\]/,
      ],
      [
        "a text part without text",
        { role: "user", content: [{ type: "text", content: "hi" }] },
        /messages\[0\]\.content\[0\]/,
      ],
      [
        "a tool call whose args are a JSON string",
        { role: "assistant", content: [{ type: "tool-call", id: "c", name: "t", args: '{"a":1}' }] },
        /messages\[0\]\.content\[0\].*args/,
      ],
      [
        "a tool call without an id",
        { role: "assistant", content: [{ type: "tool-call", name: "t", args: {} }] },
        /messages\[0\]\.content\[0\]/,
      ],
    ])("should refuse %s with a TypeError naming the part", async (_name, message, pattern) => {
      const model = new ScriptedChatModel([textStep("ok")]);
      const error = await runCall(model, { messages: [message as unknown as Message, user("go on")] }, mode).catch(
        (caught: unknown) => caught,
      );
      expect(error).toBeInstanceOf(TypeError);
      expect((error as Error).message).toMatch(pattern);
      expect(model.calls).toHaveLength(0);
    });
  });
});
