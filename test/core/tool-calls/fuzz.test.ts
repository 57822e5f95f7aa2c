import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { z } from "zod";
import { ChatModelError, defineTool } from "../../../src/index.js";
import { ScriptedChatModel, rawStep, toolCallStep } from "../../../src/testing/index.js";
import { parseJSONValue } from "../../../src/core/tool-calls/parse-json-value.js";
import { parseToolArguments } from "../../../src/core/tool-calls/parse-tool-arguments.js";
import { recoverTextToolCalls } from "../../../src/core/text-tool-calls/recover-text-tool-calls.js";
import { readToolUnion } from "../../../src/core/tool-choice/read-tool-union.js";

/** JSON text broken the ways models break it: cut short, characters dropped or doubled, wrapped in prose. */
const brokenJSON = fc
  .tuple(
    fc.json({ maxDepth: 4 }),
    fc.nat(),
    fc.nat(),
    fc.constantFrom("", "```json\n", "Sure! ", "<tool_call>"),
    fc.constantFrom("", "\n```", " hope that helps", "</tool_call>"),
  )
  .map(([json, cut, drop, before, after]) => {
    const shortened = json.slice(0, Math.max(1, json.length - (cut % 4)));
    const at = drop % Math.max(1, shortened.length);
    return before + shortened.slice(0, at) + shortened.slice(at + 1) + after;
  });

const anyText = fc.oneof(brokenJSON, fc.string({ maxLength: 300 }), fc.string({ unit: "grapheme", maxLength: 100 }));

function assertUnpolluted(): void {
  expect(Object.keys(Object.prototype)).toEqual([]);
  expect(({} as Record<string, unknown>).polluted).toBeUndefined();
}

describe("the repair and tool-call parsing path, fuzzed", () => {
  it("should never throw and never pollute prototypes while parsing 10,000 broken inputs", () => {
    fc.assert(
      fc.property(anyText, fc.string({ maxLength: 20 }), (text, name) => {
        parseJSONValue(text);
        parseToolArguments(text);
        recoverTextToolCalls(text, (candidate) => candidate.length > 0);
        readToolUnion(text, name || undefined);
        readToolUnion(text, undefined);
      }),
      { numRuns: 10_000 },
    );
    assertUnpolluted();
  });

  it("should drop prototype keys wherever they appear in parsed arguments", () => {
    fc.assert(
      fc.property(fc.json({ maxDepth: 3 }), fc.constantFrom("__proto__", "constructor"), (json, key) => {
        const hostile = `{"a": ${json}, "${key}": {"prototype": {"polluted": true}, "polluted": true}}`;
        const parsed = parseToolArguments(hostile);
        if (parsed.ok) {
          expect(Object.getPrototypeOf(parsed.args)).toBe(Object.prototype);
          expect(Object.prototype.hasOwnProperty.call(parsed.args, "__proto__")).toBe(false);
        }
      }),
      { numRuns: 500 },
    );
    assertUnpolluted();
  });

  it("should end every call through the model with an output or keelson's own error, for random replies and tool names", async () => {
    const tool = defineTool({ name: "lookup", inputSchema: z.object({ id: z.string() }) });
    await fc.assert(
      fc.asyncProperty(anyText, fc.string({ maxLength: 12 }), fc.boolean(), async (text, name, forced) => {
        const model = new ScriptedChatModel([forced ? rawStep(text) : toolCallStep(name || "x", text)], {
          maxRepairAttempts: 0,
          toolChoiceSupport: forced ? [] : ["auto", "none", "required", "single"],
        });
        try {
          await model.create({
            messages: [{ role: "user", content: "q" }],
            tools: [tool],
            toolChoice: forced ? "required" : "auto",
          });
        } catch (error) {
          expect(ChatModelError.isInstance(error)).toBe(true);
        }
      }),
      { numRuns: 1_000 },
    );
    assertUnpolluted();
  });

  it("should refuse huge and deeply nested input in bounded time, saying why", () => {
    const deep = "[".repeat(100_000) + "]".repeat(100_000);
    const deepObject = '{"a":'.repeat(5_000) + "1" + "}".repeat(5_000);
    const huge = `{"q": "${"x".repeat(400_000)}"`;
    const unclosedTags = "<tool_call>".repeat(30_000);
    for (const text of [deep, deepObject, huge, unclosedTags]) {
      const started = performance.now();
      const parsed = parseToolArguments(text);
      recoverTextToolCalls(text, () => true);
      readToolUnion(text, "lookup");
      expect(performance.now() - started).toBeLessThan(5_000);
      expect(parsed.ok).toBe(false);
    }
    expect(parseToolArguments(deepObject)).toMatchObject({
      ok: false,
      problem: expect.stringContaining("nested deeper than 64"),
    });
    expect(parseToolArguments(huge)).toMatchObject({ ok: false, problem: expect.stringContaining("past the 262144") });
  });
});
