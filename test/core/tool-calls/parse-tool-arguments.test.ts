import { describe, expect, it } from "vitest";
import { maxNestingDepth, parseToolArguments } from "../../../src/core/tool-calls/parse-tool-arguments.js";

describe("parseToolArguments", () => {
  it("should copy object arguments as JSON would, without prototype keys at any level", () => {
    const hostile = JSON.parse(
      '{"a": {"__proto__": {"polluted": true}, "b": [1, {"constructor": {"prototype": {"x": 1}}}]}}',
    ) as Record<string, unknown>;
    const raw: Record<string, unknown> = { ...hostile, skipped: undefined, when: new Date(0) };
    const parsed = parseToolArguments(raw);
    expect(parsed).toEqual({ ok: true, args: { a: { b: [1, {}] }, when: "1970-01-01T00:00:00.000Z" }, repairs: [] });
    expect(parsed.ok && parsed.args.a).not.toBe(raw.a);
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
  });

  it("should refuse object arguments nested past the limit, and take them at it", () => {
    const nest = (levels: number): Record<string, unknown> => (levels === 1 ? { leaf: 1 } : { a: nest(levels - 1) });
    expect(parseToolArguments(nest(maxNestingDepth))).toMatchObject({ ok: true });
    expect(parseToolArguments(nest(maxNestingDepth + 1))).toMatchObject({
      ok: false,
      problem: expect.stringContaining("nested deeper"),
    });
  });

  it("should refuse argument text nested past the limit and take it at it, with or without repair", () => {
    const text = (levels: number): string => '{"a":'.repeat(levels - 1) + '{"leaf":[]}' + "}".repeat(levels - 1);
    for (const repair of [true, false]) {
      expect(parseToolArguments(text(maxNestingDepth - 1), repair)).toMatchObject({ ok: true, repairs: [] });
      expect(parseToolArguments(text(maxNestingDepth), repair)).toMatchObject({
        ok: false,
        problem: expect.stringContaining("nested deeper than 64"),
      });
      expect(parseToolArguments(`[${text(2)}]`, repair)).toMatchObject({
        ok: false,
        problem: expect.stringContaining("must be a JSON object, got an array"),
      });
    }
    expect(parseToolArguments(text(3), true)).toEqual({ ok: true, args: { a: { a: { leaf: [] } } }, repairs: [] });
  });

  it("should refuse the most compact text nested past the limit (a short text skips the depth check)", () => {
    // An object holding arrays 64 deep: 65 levels in 133 characters, the fewest an object can take.
    const text = (arrays: number): string => `{"":${"[".repeat(arrays)}${"]".repeat(arrays)}}`;
    expect(text(maxNestingDepth).length).toBe(133);
    for (const repair of [true, false]) {
      expect(parseToolArguments(text(maxNestingDepth - 1), repair)).toMatchObject({ ok: true, repairs: [] });
      expect(parseToolArguments(text(maxNestingDepth), repair)).toMatchObject({
        ok: false,
        problem: expect.stringContaining("nested deeper than 64"),
      });
    }
  });

  it("should check the depth of a doubly encoded value, which the text check cannot see", () => {
    const deep = '{"a":'.repeat(maxNestingDepth + 1) + "1" + "}".repeat(maxNestingDepth + 1);
    expect(parseToolArguments(JSON.stringify(deep))).toMatchObject({
      ok: false,
      problem: expect.stringContaining("nested deeper"),
    });
  });
});
