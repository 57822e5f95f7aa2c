import { copyOptions, type EvalProfile } from "./eval-profile.js";
import type { EvalRecommendation, EvalRow } from "./eval-report.js";

/**
 * Per model, the profile with the best success rate, then the lower p95 latency (rows with no runs
 * left out). On a replay the latency is the cassette's, not the model's: ties then go to the higher
 * first-try rate, then the fewer attempts, then the profile listed first — the same every run.
 */
export function recommendProfiles(
  rows: readonly EvalRow[],
  profiles: readonly EvalProfile[],
  options: { replay?: boolean } = {},
): EvalRecommendation[] {
  const better = (row: EvalRow, current: EvalRow) => {
    if (row.successRate !== current.successRate) return row.successRate > current.successRate;
    if (!options.replay) return row.latencyMs.p95 < current.latencyMs.p95;
    if (row.firstTrySuccessRate !== current.firstTrySuccessRate)
      return row.firstTrySuccessRate > current.firstTrySuccessRate;
    return row.attempts < current.attempts;
  };
  const best = new Map<string, EvalRow>();
  for (const row of rows) {
    if (row.cases === 0) continue;
    const key = `${row.model.providerId}:${row.model.modelId}`;
    const current = best.get(key);
    if (current === undefined || better(row, current)) best.set(key, row);
  }
  return [...best.values()].map((row) => ({
    model: row.model,
    profile: row.profile,
    options: copyOptions(profiles.find((profile) => profile.name === row.profile)?.options ?? {}),
    successRate: row.successRate,
    p95LatencyMs: row.latencyMs.p95,
  }));
}
