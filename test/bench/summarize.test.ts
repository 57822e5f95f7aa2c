import { describe, expect, it } from "vitest";
import type { CallSample } from "../../bench/measure.js";
import { checkTargets, collect, type CallCase } from "../../bench/summarize.js";

const sample = (p50Ms: number): CallSample => ({
  p50Ms,
  meanMs: p50Ms,
  cpuPerCallUs: 1000 * p50Ms,
  peakRssBytes: 100e6,
});

/** A call case from per-round p50s: raw fixed at 1 ms, keelson as given. */
function callCase(path: CallCase["path"], keelson: number[], withRounds = true): CallCase {
  const samples = { raw: keelson.map(() => sample(1)), keelson: keelson.map(sample) };
  return {
    provider: "openai",
    kind: "call",
    path,
    ...collect(samples),
    ...(withRounds ? { keelsonRoundP50s: keelson } : {}),
  };
}

const forcedTarget = (calls: CallCase[]) =>
  checkTargets(calls, [], ["openai"]).find((target) => target.name.includes("forced"))!;

describe("checkTargets: forced call ÷ native call", () => {
  it("should give the ratio a 95% interval from the rounds, and call a verdict the rounds cannot settle 'within noise'", () => {
    const native = [0.6, 0.62, 0.58, 0.61, 0.6, 0.59, 0.63, 0.6];
    const noisy = native.map((value, round) => value * [1.02, 1.09, 1.04, 1.07, 1.03, 1.08, 1.05, 1.06][round]!);
    const target = forcedTarget([callCase("native", native), callCase("forced", noisy)]);
    expect(target.interval).toBeDefined();
    expect(target.interval![0]).toBeLessThan(1.05);
    expect(target.interval![1]).toBeGreaterThan(1.05);
    expect(target.withinNoise).toBe(true);
  });

  it("should settle a verdict the rounds agree on", () => {
    const native = [0.6, 0.62, 0.58, 0.61, 0.6, 0.59, 0.63, 0.6];
    const target = forcedTarget([
      callCase("native", native),
      callCase(
        "forced",
        native.map((value) => value * 1.01),
      ),
    ]);
    expect(target).toMatchObject({ met: true, withinNoise: false });
    expect(target.interval![1]).toBeLessThan(1.05);
  });

  it("should give no interval when the rounds are not kept", () => {
    const native = [0.6, 0.62, 0.58, 0.61, 0.6];
    const target = forcedTarget([callCase("native", native, false), callCase("forced", native, false)]);
    expect(target.interval).toBeUndefined();
    expect(target.withinNoise).toBe(false);
  });
});
