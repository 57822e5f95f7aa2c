import { describe, expect, it } from "vitest";
import { ratioInterval } from "../../bench/stats.js";

describe("the benchmark's ratio interval", () => {
  it("is the ratio itself when every round gives the same figures", () => {
    expect(ratioInterval([1.1, 1.1, 1.1, 1.1, 1.1], [1, 1, 1, 1, 1])).toEqual(
      [1.1, 1.1].map((value) => expect.closeTo(value, 12)),
    );
  });

  it("holds the ratio of the medians and widens with the rounds' noise", () => {
    const raw = [0.5, 0.52, 0.49, 0.55, 0.51, 0.5, 0.53, 0.48, 0.54, 0.5, 0.52, 0.51];
    const quiet = raw.map((value) => value * 1.05);
    const noisy = raw.map((value, round) => value * (round % 2 === 0 ? 0.95 : 1.15));
    const [quietLow, quietHigh] = ratioInterval(quiet, raw)!;
    expect(quietLow).toBeLessThanOrEqual(1.05 + 1e-9);
    expect(quietHigh).toBeGreaterThanOrEqual(1.05 - 1e-9);
    const [noisyLow, noisyHigh] = ratioInterval(noisy, raw)!;
    expect(noisyHigh - noisyLow).toBeGreaterThan(quietHigh - quietLow);
    expect(noisyLow).toBeLessThan(1.05);
    expect(noisyHigh).toBeGreaterThan(1.05);
  });

  it("gives the same interval for the same figures, and none for fewer than 5 rounds", () => {
    const raw = [1, 2, 3, 4, 5, 6, 7];
    const keelson = [1.2, 1.9, 3.3, 4.1, 5.6, 6.2, 7.7];
    expect(ratioInterval(keelson, raw)).toEqual(ratioInterval(keelson, raw));
    expect(ratioInterval([1, 2, 3, 4], [1, 2, 3, 4])).toBeUndefined();
  });
});
