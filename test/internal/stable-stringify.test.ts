import { describe, expect, it } from "vitest";
import { stableStringify } from "../../src/internal/stable-stringify.js";

describe("stableStringify", () => {
  it("should give equal strings for equal data whatever its key order, and drop undefined members", () => {
    expect(stableStringify({ b: 1, a: { d: [1, { y: 2, x: undefined }], c: 2 } })).toBe(
      stableStringify({ a: { c: 2, d: [1, { y: 2 }] }, b: 1 }),
    );
  });

  it("should keep an own '__proto__' member (parsed JSON can hold one), so that different data never share a string", () => {
    const withKey = JSON.parse('{"args": {"__proto__": {"admin": true}, "q": 1}}') as unknown;
    const without = JSON.parse('{"args": {"q": 1}}') as unknown;
    expect(stableStringify(withKey)).not.toBe(stableStringify(without));
    expect(stableStringify(withKey)).toBe(JSON.stringify(withKey));
  });
});
