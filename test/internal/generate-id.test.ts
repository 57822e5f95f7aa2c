import { describe, expect, it } from "vitest";
import { generateToolCallId } from "../../src/internal/generate-id.js";

describe("generateToolCallId", () => {
  it("should make ids of call_ and 8 characters of [a-z0-9], unique across many", () => {
    const ids = Array.from({ length: 20_000 }, () => generateToolCallId());
    for (const id of ids) expect(id).toMatch(/^call_[a-z0-9]{8}$/);
    expect(new Set(ids).size).toBe(ids.length);
  });

  it("should draw every character uniformly, at every position", () => {
    const ids = Array.from({ length: 72_000 }, () => generateToolCallId().slice(5));
    // Per position each of the 36 characters is expected 2000 times (standard deviation about 44,
    // so the bounds are 5 deviations out); a byte taken modulo 36 without redrawing would give a-d
    // 2286 times.
    for (let position = 0; position < 8; position++) {
      const counts = new Map<string, number>();
      for (const id of ids) counts.set(id[position]!, (counts.get(id[position]!) ?? 0) + 1);
      expect(counts.size).toBe(36);
      for (const count of counts.values()) {
        expect(count).toBeGreaterThan(1780);
        expect(count).toBeLessThan(2220);
      }
    }
  });
});
