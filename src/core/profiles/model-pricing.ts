import type { Usage } from "../usage.js";

/** What a model's tokens cost, in US dollars per million tokens. */
export interface ModelPricing {
  /** Uncached input tokens. */
  inputPerMTok: number;
  /** Output tokens (reasoning included). */
  outputPerMTok: number;
  /** Input tokens read from the prompt cache. @default inputPerMTok */
  cachedInputPerMTok?: number;
  /** Input tokens written to the prompt cache. @default inputPerMTok */
  cacheWritePerMTok?: number;
}

/**
 * What `usage` cost at `pricing`, in USD: cache reads and cache writes (parts of `inputTokens`) at
 * their own rates, the rest of the input at the input rate, every output token at the output rate.
 */
export function costOf(usage: Usage, pricing: ModelPricing): number {
  const cached = usage.cachedInputTokens ?? 0;
  const written = usage.cacheWriteInputTokens ?? 0;
  const uncached = Math.max(0, usage.inputTokens - cached - written);
  const dollars =
    uncached * pricing.inputPerMTok +
    cached * (pricing.cachedInputPerMTok ?? pricing.inputPerMTok) +
    written * (pricing.cacheWritePerMTok ?? pricing.inputPerMTok) +
    usage.outputTokens * pricing.outputPerMTok;
  return dollars / 1_000_000;
}

/** A usage report with its `costUsd`, where the pricing is known (the same object, priced). */
export function priced(usage: Usage, pricing: ModelPricing | undefined): Usage {
  if (pricing !== undefined) usage.costUsd = costOf(usage, pricing);
  return usage;
}

const rates = ["inputPerMTok", "outputPerMTok", "cachedInputPerMTok", "cacheWritePerMTok"] as const;

/** A `pricing` option checked: the two rates required, each rate a non-negative finite number. */
export function checkPricing(pricing: unknown): ModelPricing {
  if (pricing === null || typeof pricing !== "object") {
    throw new TypeError(
      "The pricing option must be { inputPerMTok, outputPerMTok, cachedInputPerMTok?, cacheWritePerMTok? } (USD per million tokens).",
    );
  }
  const given = pricing as Record<string, unknown>;
  for (const rate of rates) {
    const value = given[rate];
    const required = rate === "inputPerMTok" || rate === "outputPerMTok";
    if (value === undefined && !required) continue;
    if (typeof value !== "number" || !Number.isFinite(value) || value < 0) {
      throw new TypeError(
        `pricing.${rate} must be a non-negative number of USD per million tokens, got ${String(value)}.`,
      );
    }
  }
  return { ...(pricing as ModelPricing) };
}
