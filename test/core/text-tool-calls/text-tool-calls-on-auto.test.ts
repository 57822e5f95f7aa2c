import fc from "fast-check";
import { describe, expect, it } from "vitest";
import type { ChatModelChunk, ChatModelInput, Tool } from "../../../src/index.js";
import { ScriptedChatModel, rawStep } from "../../../src/testing/index.js";
import { callModes, runCall, settleCall, user } from "../../support/run-modes.js";
import { hasSharedFixtures, missingFixturesMessage } from "../../support/shared-fixtures.js";
import {
  callLikeReplies,
  corpusTools,
  ordinaryReplies,
  quoteReadings,
  readQuotes,
  textCallReplies,
  type CorpusReply,
} from "./__fixtures__/text-call-corpus.js";

/**
 * Tool calls written as text under toolChoice "auto" (the default): a reply that is nothing but
 * calls to the call's tools is read as those calls; every other reply — ordinary answers full of
 * JSON, code and tool names, and replies shaped like calls that are not wholly valid ones — stays
 * text. In a stream, the markup of a recovered call never reaches the caller as text.
 */
type Expected = { name: string; args: Record<string, unknown> }[];

const auto = (tools: Tool[], calls = 1): ChatModelInput => ({
  messages: [user("q")],
  tools,
  ...(calls > 1 ? { parallelToolCalls: true } : {}),
});

const textOf = (chunks: ChatModelChunk[]) =>
  chunks.flatMap((chunk) => (chunk.type === "text-delta" ? [chunk.text] : [])).join("");
const callsOf = (calls: readonly { name: string; args: unknown }[]) => calls.map(({ name, args }) => ({ name, args }));

/** The recovered corpus: our own forms, then the real quotes that are nothing but calls. */
function recoverable(): { label: string; text: string; tools: Tool[]; calls: Expected }[] {
  const own = textCallReplies.map((reply) => ({ ...reply, tools: corpusTools }));
  if (!hasSharedFixtures) return own;
  const quoted = readQuotes().flatMap((quote) => {
    const reading = quoteReadings[quote.thread]!;
    return reading.calls
      ? [{ label: quote.thread, text: quote.posted_output, tools: reading.tools, calls: reading.calls }]
      : [];
  });
  return [...own, ...quoted];
}

/** Replies that must stay text: the ordinary corpus, the call-shaped ones, and the quotes that are not only calls. */
function mustStayText(): { label: string; text: string; tools: Tool[] }[] {
  const own = [...ordinaryReplies, ...callLikeReplies].map((reply: CorpusReply) => ({ ...reply, tools: corpusTools }));
  if (!hasSharedFixtures) return own;
  const quoted = readQuotes().flatMap((quote) => {
    const reading = quoteReadings[quote.thread]!;
    return reading.calls ? [] : [{ label: quote.thread, text: quote.posted_output, tools: reading.tools }];
  });
  return [...own, ...quoted];
}

describe("ChatModel: tool calls written as text under toolChoice auto", () => {
  if (!hasSharedFixtures) it.skip(`issue-thread quotes: ${missingFixturesMessage}`, () => {});

  describe.each(callModes)("through %s", (mode) => {
    it.each(recoverable().map((entry) => [entry.label, entry] as const))(
      "should read %s as exactly its calls",
      async (_label, entry) => {
        const model = new ScriptedChatModel([rawStep(entry.text)], { maxRepairAttempts: 0 });
        const { output, chunks } = await runCall(model, auto(entry.tools, entry.calls.length), mode);
        expect(callsOf(output.toolCalls)).toEqual(entry.calls);
        expect(output.meta.repairs).toContainEqual(expect.objectContaining({ kind: "text-tool-call" }));
        expect(output.finishReason).toBe("tool-calls");
        expect(output.text).toBe(
          entry.text.startsWith("<think>") ? entry.text.slice(0, entry.text.indexOf("</think>") + 8) : "",
        );
        if (mode === "createStream") {
          // The markup never reaches the caller: only the leading think block is shown as text.
          expect(textOf(chunks)).toBe(output.text);
          expect(callsOf(chunks.flatMap((chunk) => (chunk.type === "tool-call" ? [chunk.toolCall] : [])))).toEqual(
            entry.calls,
          );
        }
      },
    );

    it.each(mustStayText().map((entry) => [entry.label, entry] as const))(
      "should leave %s as text",
      async (_label, entry) => {
        const model = new ScriptedChatModel([rawStep(entry.text)], { maxRepairAttempts: 0 });
        const { output, chunks } = await runCall(model, auto(entry.tools), mode);
        expect(output.toolCalls).toEqual([]);
        expect(output.text).toBe(entry.text);
        expect(output.finishReason).toBe("stop");
        expect(output.meta.repairs.map((repair) => repair.kind)).not.toContain("text-tool-call");
        if (mode === "createStream") {
          expect(textOf(chunks)).toBe(entry.text);
          expect(chunks.some((chunk) => chunk.type === "tool-call")).toBe(false);
        }
      },
    );

    it("should recover the whole recoverable corpus with no false positive on the text corpus", async () => {
      const tally = { recovered: 0, falsePositives: 0 };
      for (const entry of recoverable()) {
        const model = new ScriptedChatModel([rawStep(entry.text)], { maxRepairAttempts: 0 });
        const { output } = await settleCall(model, auto(entry.tools, entry.calls.length), mode);
        if (JSON.stringify(callsOf(output?.toolCalls ?? [])) === JSON.stringify(entry.calls)) tally.recovered++;
      }
      for (const entry of mustStayText()) {
        const model = new ScriptedChatModel([rawStep(entry.text)], { maxRepairAttempts: 0 });
        const { output } = await settleCall(model, auto(entry.tools), mode);
        if (output === undefined || output.toolCalls.length > 0) tally.falsePositives++;
      }
      expect(tally).toEqual({ recovered: recoverable().length, falsePositives: 0 });
    });

    it("should leave every reply as text with recoverTextToolCallsOnAuto: false", async () => {
      for (const entry of recoverable()) {
        const model = new ScriptedChatModel([rawStep(entry.text)], { recoverTextToolCallsOnAuto: false });
        const { output, chunks } = await runCall(model, auto(entry.tools, entry.calls.length), mode);
        expect(output.toolCalls).toEqual([]);
        expect(output.text).toBe(entry.text);
        if (mode === "createStream") expect(textOf(chunks)).toBe(entry.text);
      }
    });

    it("should leave a call with prose before or after it as text, whatever the prose", async () => {
      const call = '{"name": "get_weather", "arguments": {"city": "Paris"}}';
      const prose = fc
        .string({ minLength: 1, maxLength: 40 })
        .filter((text) => /[A-Za-z0-9.!?]/.test(text) && !/[{}[\]<>`]/.test(text));
      await fc.assert(
        fc.asyncProperty(prose, fc.boolean(), async (words, before) => {
          const text = before ? `${words}\n${call}` : `${call}\n${words}`;
          const model = new ScriptedChatModel([rawStep(text)], { maxRepairAttempts: 0 });
          const { output, chunks } = await runCall(model, auto(corpusTools), mode);
          expect(output.toolCalls).toEqual([]);
          expect(output.text).toBe(text);
          if (mode === "createStream") expect(textOf(chunks)).toBe(text);
        }),
        { numRuns: 40 },
      );
    });
  });

  describe("through createStream, however the reply is split into deltas", () => {
    /** A reply cut at the given points into text deltas. */
    const split = (text: string, cuts: number[]) => {
      const points = [...new Set(cuts.map((cut) => cut % (text.length + 1)))].sort((a, b) => a - b);
      const pieces = [0, ...points, text.length]
        .slice(1)
        .map((end, i, ends) => text.slice(i === 0 ? 0 : ends[i - 1], end));
      return pieces.filter((piece) => piece !== "");
    };
    const cuts = fc.array(fc.nat(), { maxLength: 12 });

    it("should show a recovered call as tool-call chunks only, never its markup", async () => {
      const entries = recoverable();
      await fc.assert(
        fc.asyncProperty(fc.integer({ min: 0, max: entries.length - 1 }), cuts, async (index, points) => {
          const entry = entries[index]!;
          const model = new ScriptedChatModel([rawStep(entry.text, { chunks: split(entry.text, points) })], {
            maxRepairAttempts: 0,
          });
          const { output, chunks } = await runCall(model, auto(entry.tools, entry.calls.length), "createStream");
          expect(callsOf(output.toolCalls)).toEqual(entry.calls);
          expect(textOf(chunks)).toBe(output.text);
        }),
        { numRuns: 150 },
      );
    });

    it("should show any reply made of call-form fragments either whole as text or as calls only", async () => {
      const fragment = fc.constantFrom(
        "<tool_call>",
        "</tool_call>",
        "<function=get_weather>",
        "</function>",
        "<think>",
        "</think>",
        "[TOOL_CALLS]",
        "[ARGS]",
        "<|tool_call>",
        "<tool_call|>",
        "<|python_tag|>",
        "```json\n",
        "```",
        "{",
        "}",
        "[",
        "]",
        "(",
        ")",
        '"name": ',
        '"arguments": ',
        '"get_weather"',
        '{"city": "Paris"}',
        "get_weather",
        "city=",
        "'Paris'",
        ", ",
        "\\",
        '"',
        "'",
        "\n",
        " ",
        "Paris is sunny.",
        "search(",
        'query="x"',
      );
      const reply = fc.array(fragment, { minLength: 1, maxLength: 14 }).map((parts) => parts.join(""));
      await fc.assert(
        fc.asyncProperty(reply, cuts, async (text, points) => {
          const model = new ScriptedChatModel([rawStep(text, { chunks: split(text, points) })], {
            maxRepairAttempts: 0,
          });
          const { output, error, chunks } = await settleCall(model, auto(corpusTools, 2), "createStream");
          // Several calls with parallel calls allowed: nothing here is an output error.
          expect(error).toBeUndefined();
          if (output!.toolCalls.length === 0) expect(textOf(chunks)).toBe(text);
          else expect(textOf(chunks)).toBe(output!.text);
        }),
        { numRuns: 400 },
      );
    });

    it("should show every reply that stays text exactly as it was written", async () => {
      const entries = mustStayText();
      await fc.assert(
        fc.asyncProperty(fc.integer({ min: 0, max: entries.length - 1 }), cuts, async (index, points) => {
          const entry = entries[index]!;
          const model = new ScriptedChatModel([rawStep(entry.text, { chunks: split(entry.text, points) })], {
            maxRepairAttempts: 0,
          });
          const { output, chunks } = await runCall(model, auto(entry.tools), "createStream");
          expect(output.toolCalls).toEqual([]);
          expect(textOf(chunks)).toBe(entry.text);
        }),
        { numRuns: 200 },
      );
    });
  });
});
