import type { CompletionUsage } from "openai/resources/completions";
import type { Usage } from "../../core/usage.js";

/** OpenAI usage in keelson's terms, with cached prompt tokens and reasoning tokens when reported. */
export function mapOpenAIUsage(usage: CompletionUsage | null | undefined): Partial<Usage> | undefined {
  if (!usage) return undefined;
  const result: Partial<Usage> = {
    inputTokens: usage.prompt_tokens,
    outputTokens: usage.completion_tokens,
    totalTokens: usage.total_tokens,
  };
  const cached = usage.prompt_tokens_details?.cached_tokens;
  if (typeof cached === "number") result.cachedInputTokens = cached;
  const reasoning = usage.completion_tokens_details?.reasoning_tokens;
  if (typeof reasoning === "number") result.reasoningTokens = reasoning;
  return result;
}
