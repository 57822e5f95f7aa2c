import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { extractReasoningMiddleware, type ChatModelChunk } from "../../../src/index.js";
import { ScriptedChatModel, streamStep, textStep } from "../../../src/testing/index.js";
import { callModes, runCall, user } from "../../support/run-modes.js";

/** A streamed reply whose text is cut at the given places. */
function cut(text: string, cuts: number[]): string[] {
  const at = [...new Set(cuts.map((n) => n % (text.length + 1)))].sort((a, b) => a - b);
  const pieces: string[] = [];
  let from = 0;
  for (const to of at) {
    pieces.push(text.slice(from, to));
    from = to;
  }
  pieces.push(text.slice(from));
  return pieces.filter((piece) => piece !== "");
}

describe("extractReasoningMiddleware", () => {
  describe.each(callModes)("through %s", (mode) => {
    it("should turn a <think> block into reasoning and keep the answer as the text", async () => {
      const model = new ScriptedChatModel(
        [
          textStep("<think>The user greets me.\nI greet back.</think>\n\nHello!", {
            chunks: ["<thi", "nk>The user greets me.\nI gr", "eet back.</th", "ink>\n\nHel", "lo!"],
          }),
        ],
        { middleware: [extractReasoningMiddleware()] },
      );
      const { output, chunks } = await runCall(model, { messages: [user("Hi")] }, mode);
      expect(output.text).toBe("Hello!");
      expect(output.reasoning).toBe("The user greets me.\nI greet back.");
      if (mode === "createStream") {
        const text = chunks.filter((chunk) => chunk.type === "text-delta").map((chunk) => chunk.text);
        const reasoning = chunks.filter((chunk) => chunk.type === "reasoning-delta").map((chunk) => chunk.text);
        expect(text.join("")).toBe("Hello!");
        expect(reasoning.join("")).toBe("The user greets me.\nI greet back.");
        expect(text.join("")).not.toContain("<");
      }
    });

    it("should take another tag name, and leave text without the tag as it is", async () => {
      const model = new ScriptedChatModel(
        [textStep("<reasoning>short</reasoning>Yes."), textStep("No <think> here.")],
        {
          middleware: [extractReasoningMiddleware({ tagName: "reasoning" })],
        },
      );
      const first = await runCall(model, { messages: [user("Q1")] }, mode);
      expect(first.output.text).toBe("Yes.");
      expect(first.output.reasoning).toBe("short");
      const second = await runCall(model, { messages: [user("Q2")] }, mode);
      expect(second.output.text).toBe("No <think> here.");
      expect(second.output.reasoning ?? "").toBe("");
    });
  });

  it("should split any stream the same as the whole text, wherever the chunks are cut", async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.string({ maxLength: 20 }),
        fc.string({ maxLength: 30 }).filter((s) => !s.includes("<")),
        fc.string({ minLength: 1, maxLength: 20 }).filter((s) => !s.includes("<") && s.trim() === s),
        fc.array(fc.nat(80), { maxLength: 8 }),
        async (before, thought, answer, cuts) => {
          const prefix = before.replace(/</g, "");
          const whole = `${prefix}<think>${thought}</think> ${answer}`;
          const chunks: ChatModelChunk[] = [
            ...cut(whole, cuts).map((text): ChatModelChunk => ({ type: "text-delta", text })),
            { type: "finish", finishReason: "stop" },
          ];
          const streamed = new ScriptedChatModel([streamStep(chunks)], {
            middleware: [extractReasoningMiddleware()],
            retryOnEmptyResponse: false,
          });
          const stream = streamed.createStream({ messages: [user("Hi")] });
          const seen: ChatModelChunk[] = [];
          for await (const chunk of stream) seen.push(chunk);
          const output = await stream.final();
          const whole_ = new ScriptedChatModel([textStep(whole)], {
            middleware: [extractReasoningMiddleware()],
            retryOnEmptyResponse: false,
          });
          const created = await whole_.create({ messages: [user("Hi")] });
          expect(output.text).toBe(created.text);
          expect(output.reasoning ?? "").toBe(created.reasoning ?? "");
          expect(created.text).toBe(`${prefix}${answer}`);
          expect(seen.some((chunk) => chunk.type === "text-delta" && chunk.text.includes("think>"))).toBe(false);
        },
      ),
      { numRuns: 60 },
    );
  });

  it("should refuse a tag name that is none", () => {
    expect(() => extractReasoningMiddleware({ tagName: "<think>" })).toThrow(/tagName must be a tag name/);
  });
});
