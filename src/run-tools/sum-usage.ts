import type { Usage } from "../core/usage.js";

/** The sum of the steps' usage: each count the steps report (optional ones only when one reports it). */
export function sumUsage(usages: readonly Usage[]): Usage {
  const total: Record<string, number> = { inputTokens: 0, outputTokens: 0, totalTokens: 0 };
  for (const usage of usages) {
    for (const [key, value] of Object.entries(usage)) {
      if (typeof value === "number") total[key] = (total[key] ?? 0) + value;
    }
  }
  return total as unknown as Usage;
}
