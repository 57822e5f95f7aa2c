import { describe, expect, it } from "vitest";
import { safeJSONParse } from "../../src/internal/safe-json.js";

describe("safeJSONParse", () => {
  it.each([
    ['{"a": 1, "__proto__": {"polluted": true}}', "written out"],
    ['{"a": 1, "\\u005f_proto__": {"polluted": true}}', "behind a \\u escape"],
    [
      '{"a": 1, "nested": {"\\u005F\\u005Fproto\\u005F\\u005F": {"polluted": true}}}',
      "nested, every character escaped",
    ],
  ])("should drop a __proto__ key %s (%s)", (text) => {
    const parsed = safeJSONParse(text) as Record<string, unknown>;
    expect(parsed.a).toBe(1);
    const nested = (parsed.nested ?? parsed) as Record<string, unknown>;
    expect(Object.prototype.hasOwnProperty.call(nested, "__proto__")).toBe(false);
    expect(Object.getPrototypeOf(nested)).toBe(Object.prototype);
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
  });

  it.each([
    '{"constructor": {"prototype": {"polluted": true}}}',
    '{"\\u0063onstructor": {"prototype": {"polluted": true}}}',
  ])("should drop a constructor key that holds a prototype: %s", (text) => {
    expect(safeJSONParse(text)).toEqual({});
  });

  it("should keep a constructor key without a prototype, and parse everything else as JSON.parse does", () => {
    const text = '{"constructor": "Ada", "list": [1, 2.5, null, true, "x\\n"], "deep": {"k": {}}}';
    expect(safeJSONParse(text)).toEqual(JSON.parse(text));
    expect(safeJSONParse('"plain"')).toBe("plain");
  });

  it("should end absurdly deep input with a RangeError rather than return it", () => {
    expect(() => safeJSONParse("[".repeat(100_000) + "]".repeat(100_000))).toThrow(RangeError);
  });

  it("should drop an escaped __proto__ key in a long text too", () => {
    const text = `{"pad": "${"x".repeat(5_000)}", "\\u005f_proto__": {"polluted": true}}`;
    expect(Object.keys(safeJSONParse(text) as object)).toEqual(["pad"]);
  });

  it("should throw like JSON.parse on text that is not JSON", () => {
    expect(() => safeJSONParse("{oops")).toThrow(SyntaxError);
  });
});
