import { describe, expect, it } from "vitest";
import { readCacheEntry } from "../../../src/core/cache/read-cache-entry.js";

const toolCall = { type: "tool-call", id: "call_1", name: "lookup", args: { city: "Paris" } };

/** An entry as keelson stores a streamed tool call, as plain JSON data. */
function entry(): Record<string, any> {
  return {
    output: {
      message: { role: "assistant", content: [{ type: "reasoning", text: "hm" }, structuredClone(toolCall)] },
      text: "",
      toolCalls: [structuredClone(toolCall)],
      reasoning: "hm",
      finishReason: "tool-calls",
      usage: { inputTokens: 10, outputTokens: 5, totalTokens: 15 },
      raw: { any: ["thing"] },
      meta: { toolChoice: "native", repairs: [], attempts: [], cacheHit: false },
    },
    chunks: [
      { type: "reasoning-delta", text: "hm" },
      { type: "tool-call-delta", index: 0, id: "call_1", name: "lookup", argsDelta: '{"city":"Paris"}' },
      { type: "tool-call", toolCall: structuredClone(toolCall) },
      { type: "finish", finishReason: "tool-calls", usage: { inputTokens: 10 } },
    ],
  };
}

describe("readCacheEntry", () => {
  it("should give back a valid entry as an equal copy", () => {
    const stored = entry();
    const read = readCacheEntry(stored);
    expect(read.problem).toBeUndefined();
    expect(read.entry).toEqual(stored);
    expect(read.entry).not.toBe(stored);
  });

  it("should drop __proto__ and constructor.prototype members at every level, as fresh arguments drop them", () => {
    const text = JSON.stringify(entry()).replaceAll(
      '{"city":"Paris"}',
      '{"city":"Paris","__proto__":{"admin":true},"constructor":{"prototype":{"admin":true}},"deep":{"__proto__":{"x":1}}}',
    );
    const read = readCacheEntry(JSON.parse(text));
    const { output, chunks } = read.entry!;
    for (const args of [output.toolCalls[0]!.args, (chunks![2] as { toolCall: { args: object } }).toolCall.args]) {
      expect(Object.keys(args)).toEqual(["city", "deep"]);
      expect(Object.hasOwn((args as { deep: object }).deep, "__proto__")).toBe(false);
    }
    // A constructor that is no prototype holder is a plain member, kept.
    const plain = readCacheEntry(
      JSON.parse(text.replaceAll('"constructor":{"prototype"', '"constructor":{"name"')),
    ).entry!;
    expect(plain.output.toolCalls[0]!.args).toHaveProperty("constructor", { name: { admin: true } });
  });

  it.each<[string, (stored: Record<string, any>) => unknown, RegExp]>([
    ["not an object", () => "entry", /^it is a string, not an entry$/],
    ["no output", (stored) => ({ ...stored, output: null }), /^its output is null$/],
    ["a user message", (stored) => ((stored.output.message.role = "user"), stored), /assistant message/],
    ["text that is no string", (stored) => ((stored.output.text = 1), stored), /output\.text is a number/],
    ["an unknown finish reason", (stored) => ((stored.output.finishReason = "done"), stored), /finishReason/],
    ["tool calls that are no list", (stored) => ((stored.output.toolCalls = "x"), stored), /not a list/],
    ["a null tool call", (stored) => ((stored.output.toolCalls = [null]), stored), /toolCalls\[0\] is not a tool call/],
    ["arguments that are a list", (stored) => ((stored.output.toolCalls[0].args = []), stored), /not a plain object/],
    ["arguments that are a Date", (stored) => ((stored.output.toolCalls[0].args = new Date(0)), stored), /plain/],
    ["a name that is no string", (stored) => ((stored.output.toolCalls[0].name = 7), stored), /id and name/],
    ["a null content part", (stored) => ((stored.output.message.content[0] = null), stored), /content\[0\]/],
    [
      "a message tool call the output does not list",
      (stored) => ((stored.output.message.content[1].id = "other"), stored),
      /does not list/,
    ],
    ["a message without its tool call", (stored) => (stored.output.message.content.pop(), stored), /fewer/],
    ["a negative token count", (stored) => ((stored.output.usage.inputTokens = -1), stored), /inputTokens/],
    ["a NaN token count", (stored) => ((stored.output.usage.totalTokens = Number.NaN), stored), /totalTokens/],
    ["an infinite token count", (stored) => ((stored.output.usage.outputTokens = Infinity), stored), /outputTokens/],
    ["no meta lists", (stored) => ((stored.output.meta = {}), stored), /meta/],
    ["chunks that are no list", (stored) => ((stored.chunks = {}), stored), /chunks are an object/],
    ["a chunk of no known type", (stored) => ((stored.chunks[0] = { type: "evil" }), stored), /chunks\[0\]/],
    ["a text delta without text", (stored) => ((stored.chunks[0] = { type: "text-delta" }), stored), /text delta/],
    ["a reset chunk", (stored) => ((stored.chunks[0] = { type: "reset", reason: "x" }), stored), /chunks\[0\]/],
    ["a delta with a negative index", (stored) => ((stored.chunks[1].index = -1), stored), /index/],
    [
      "a replayed call with other arguments' id",
      (stored) => ((stored.chunks[2].toolCall.id = "x"), stored),
      /chunks\[2\]/,
    ],
    ["a replay without the call", (stored) => (stored.chunks.splice(2, 1), stored), /fewer tool calls/],
    [
      "a function in it",
      (stored) => ((stored.output.raw = () => 1), stored),
      /cannot be copied as data \(DataCloneError\)/,
    ],
  ])("should refuse an entry with %s, saying what is wrong", (_label, damage, problem) => {
    const read = readCacheEntry(damage(entry()));
    expect(read.entry).toBeUndefined();
    expect(read.problem).toMatch(problem);
  });

  it("should refuse an entry nested past 256 levels, without a RangeError", () => {
    const stored = entry();
    let deep: unknown = {};
    for (let level = 0; level < 300; level++) deep = [deep];
    stored.output.raw = deep;
    expect(readCacheEntry(stored).problem).toBe("it nests deeper than 256 levels");
  });
});
