import type { EvalModelId } from "./eval-model.js";
import { copyOptions, type EvalProfile } from "./eval-profile.js";
import type { EvalRecommendation, EvalRow } from "./eval-report.js";

/** The rungs from the highest: fewer tokens, and the provider's own mechanism first. */
const rungOrder = ["native", "response-format", "prompt"] as const;

/**
 * The rung a profile puts forced calls on: a built-in profile's own, else read from its options
 * (a non-empty `toolChoiceSupport` is native; an empty one with the JSON-schema response format is
 * response-format; without it, prompt). A profile that sets neither ranks after the three.
 */
export function rungRank(profile: EvalProfile): number {
  const builtin = rungOrder.indexOf(profile.name as (typeof rungOrder)[number]);
  if (builtin !== -1) return builtin;
  const support = profile.options.toolChoiceSupport;
  if (support === undefined) return rungOrder.length;
  if (support.length > 0) return 0;
  return profile.options.supportsStructuredOutput === false ? 2 : 1;
}

/**
 * Per model, the profile with the highest success rate; equal rates go to the higher rung (native,
 * then response-format, then prompt), then the higher first-try rate, the fewer attempts, and the
 * profile listed first. Latency decides nothing (a cold call or a busy machine would decide it). A
 * profile with no success is never recommended: a model none of whose profiles worked is in `noneWorked`.
 */
export function recommendProfiles(
  rows: readonly EvalRow[],
  profiles: readonly EvalProfile[],
): { recommendations: EvalRecommendation[]; noneWorked: EvalModelId[] } {
  const profileOf = (row: EvalRow) => profiles.find((profile) => profile.name === row.profile);
  const rank = (row: EvalRow) => {
    const profile = profileOf(row);
    return profile === undefined ? rungOrder.length : rungRank(profile);
  };
  const better = (row: EvalRow, current: EvalRow) => {
    if (row.successRate !== current.successRate) return row.successRate > current.successRate;
    if (rank(row) !== rank(current)) return rank(row) < rank(current);
    if (row.firstTrySuccessRate !== current.firstTrySuccessRate)
      return row.firstTrySuccessRate > current.firstTrySuccessRate;
    return row.attempts < current.attempts;
  };
  const best = new Map<string, EvalRow>();
  const models = new Map<string, EvalModelId>();
  for (const row of rows) {
    const key = `${row.model.providerId}:${row.model.modelId}`;
    models.set(key, row.model);
    if (row.successes === 0) continue;
    const current = best.get(key);
    if (current === undefined || better(row, current)) best.set(key, row);
  }
  return {
    recommendations: [...best.values()].map((row) => ({
      model: row.model,
      profile: row.profile,
      options: copyOptions(profileOf(row)?.options ?? {}),
      successRate: row.successRate,
      p95LatencyMs: row.latencyMs.p95,
    })),
    noneWorked: [...models].filter(([key]) => !best.has(key)).map(([, model]) => model),
  };
}
