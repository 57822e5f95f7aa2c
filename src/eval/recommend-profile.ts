import type { EvalProfile } from "./eval-profile.js";
import type { EvalRecommendation, EvalRow } from "./eval-report.js";

/** Per model, the profile with the best success rate, then the lower p95 latency (rows with no runs left out). */
export function recommendProfiles(rows: readonly EvalRow[], profiles: readonly EvalProfile[]): EvalRecommendation[] {
  const best = new Map<string, EvalRow>();
  for (const row of rows) {
    if (row.cases === 0) continue;
    const key = `${row.model.providerId}:${row.model.modelId}`;
    const current = best.get(key);
    if (
      current === undefined ||
      row.successRate > current.successRate ||
      (row.successRate === current.successRate && row.latencyMs.p95 < current.latencyMs.p95)
    ) {
      best.set(key, row);
    }
  }
  return [...best.values()].map((row) => ({
    model: row.model,
    profile: row.profile,
    options: structuredClone(profiles.find((profile) => profile.name === row.profile)?.options ?? {}),
    successRate: row.successRate,
    p95LatencyMs: row.latencyMs.p95,
  }));
}
