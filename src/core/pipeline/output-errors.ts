import type { ChatModelError } from "../errors/chat-model-error.js";
import { EmptyResponseError } from "../errors/empty-response-error.js";
import { StructuredOutputError } from "../errors/structured-output-error.js";
import { ToolCallError } from "../errors/tool-call-error.js";
import type { Attempt, ChatModelOutput, ProviderOutput } from "../output.js";
import { emptyUsage, normalizeUsage } from "../usage.js";
import type { Usage } from "../usage.js";
import type { FinalOutput } from "./finalize-output.js";
import type { PreparedCall } from "./prepare-call.js";

/** An unusable reply that a re-ask may fix. */
export function isOutputError(error: unknown): error is ChatModelError {
  return ToolCallError.isInstance(error) || EmptyResponseError.isInstance(error) || StructuredOutputError.isInstance(error);
}

/** Whether the repair budget has room for another re-ask. */
export function canRepair(repairsDone: number, maxRepairAttempts: number): boolean {
  return repairsDone < maxRepairAttempts;
}

export function attemptOf(raw: ProviderOutput, rejected?: string): Attempt {
  const attempt: Attempt = { usage: normalizeUsage(raw.usage), finishReason: raw.finishReason ?? "other" };
  if (rejected !== undefined) attempt.rejected = rejected;
  return attempt;
}

/** The caller's output: the final attempt's content, every attempt's usage summed. */
export function completeOutput(final: FinalOutput, call: PreparedCall, attempts: Attempt[]): ChatModelOutput {
  const { repairs, ...rest } = final;
  return {
    ...rest,
    usage: attempts.length === 1 ? final.usage : sumUsage(attempts.map((attempt) => attempt.usage)),
    meta: { toolChoice: call.plan.rung, repairs, attempts, cacheHit: false },
  };
}

function sumUsage(usages: Usage[]): Usage {
  const total = emptyUsage();
  for (const usage of usages) {
    total.inputTokens += usage.inputTokens;
    total.outputTokens += usage.outputTokens;
    total.totalTokens += usage.totalTokens;
    if (usage.reasoningTokens !== undefined) total.reasoningTokens = (total.reasoningTokens ?? 0) + usage.reasoningTokens;
    if (usage.cachedInputTokens !== undefined) total.cachedInputTokens = (total.cachedInputTokens ?? 0) + usage.cachedInputTokens;
  }
  return total;
}
