/** Token counts of one call (summed over its attempts in `meta.attempts`). */
export interface Usage {
  inputTokens: number;
  outputTokens: number;
  totalTokens: number;
  reasoningTokens?: number;
  cachedInputTokens?: number;
  /** Input tokens written to the prompt cache (a part of `inputTokens`), where the provider reports them (Anthropic). */
  cacheWriteInputTokens?: number;
  /**
   * What these tokens cost in USD, where the model's pricing is known (`model.profile.pricing`):
   * cache reads and writes at their own rates. Absent when it is not.
   */
  costUsd?: number;
}

export function emptyUsage(): Usage {
  return { inputTokens: 0, outputTokens: 0, totalTokens: 0 };
}

/** Completes a partial usage report: a missing total is the sum of input and output. */
export function normalizeUsage(usage: Partial<Usage> | undefined): Usage {
  const inputTokens = usage?.inputTokens ?? 0;
  const outputTokens = usage?.outputTokens ?? 0;
  const result: Usage = {
    inputTokens,
    outputTokens,
    totalTokens: usage?.totalTokens ?? inputTokens + outputTokens,
  };
  if (usage?.reasoningTokens !== undefined) result.reasoningTokens = usage.reasoningTokens;
  if (usage?.cachedInputTokens !== undefined) result.cachedInputTokens = usage.cachedInputTokens;
  if (usage?.cacheWriteInputTokens !== undefined) result.cacheWriteInputTokens = usage.cacheWriteInputTokens;
  return result;
}

/**
 * The sum of several usage reports (a call's attempts, a tool loop's steps): every count, each
 * optional one (reasoning, cache reads, cache writes) only when at least one report carries it.
 */
export function sumUsage(usages: readonly Usage[]): Usage {
  const total = emptyUsage();
  for (const usage of usages) {
    total.inputTokens += usage.inputTokens;
    total.outputTokens += usage.outputTokens;
    total.totalTokens += usage.totalTokens;
    if (usage.reasoningTokens !== undefined)
      total.reasoningTokens = (total.reasoningTokens ?? 0) + usage.reasoningTokens;
    if (usage.cachedInputTokens !== undefined)
      total.cachedInputTokens = (total.cachedInputTokens ?? 0) + usage.cachedInputTokens;
    if (usage.cacheWriteInputTokens !== undefined)
      total.cacheWriteInputTokens = (total.cacheWriteInputTokens ?? 0) + usage.cacheWriteInputTokens;
    if (usage.costUsd !== undefined) total.costUsd = (total.costUsd ?? 0) + usage.costUsd;
  }
  return total;
}
