import type { CompletionUsage } from "openai/resources/completions";
import { isRecord, tokenCount } from "../../core/reply-fields.js";
import type { Usage } from "../../core/usage.js";

/**
 * OpenAI usage in keelson's terms, with cached prompt tokens and reasoning tokens when reported.
 * A count that is not a number (a gateway's own usage shape) is left out.
 */
export function mapOpenAIUsage(usage: CompletionUsage | null | undefined): Partial<Usage> | undefined {
  if (!isRecord(usage)) return undefined;
  const result: Partial<Usage> = {};
  const input = tokenCount(usage.prompt_tokens);
  const output = tokenCount(usage.completion_tokens);
  const total = tokenCount(usage.total_tokens);
  if (input !== undefined) result.inputTokens = input;
  if (output !== undefined) result.outputTokens = output;
  if (total !== undefined) result.totalTokens = total;
  const promptDetails: unknown = usage.prompt_tokens_details;
  const cached = isRecord(promptDetails) ? tokenCount(promptDetails.cached_tokens) : undefined;
  if (cached !== undefined) result.cachedInputTokens = cached;
  const completionDetails: unknown = usage.completion_tokens_details;
  const reasoning = isRecord(completionDetails) ? tokenCount(completionDetails.reasoning_tokens) : undefined;
  if (reasoning !== undefined) result.reasoningTokens = reasoning;
  return result;
}
