import type { ChatModelError } from "../errors/chat-model-error.js";
import { EmptyResponseError } from "../errors/empty-response-error.js";
import { StructuredOutputError } from "../errors/structured-output-error.js";
import { ToolCallError } from "../errors/tool-call-error.js";
import type { Attempt, ChatModelOutput, ModelRef, ProviderOutput, Repair } from "../output.js";
import { emptyUsage, normalizeUsage } from "../usage.js";
import type { Usage } from "../usage.js";
import type { Message } from "../messages.js";
import type { CallHost } from "./call-host.js";
import type { FinalOutput } from "./finalize-output.js";
import { finalizeOutput } from "./finalize-output.js";
import { repairGuidance } from "./repair-guidance.js";
import type { PreparedCall } from "./prepare-call.js";

/** An unusable reply that a re-ask may fix. */
export function isOutputError(error: unknown): error is ChatModelError {
  return (
    ToolCallError.isInstance(error) || EmptyResponseError.isInstance(error) || StructuredOutputError.isInstance(error)
  );
}

/**
 * Settles one attempt: its output made final, or — when unusable and the repair budget has room —
 * the guidance for a re-ask (the `repair` event emitted). Past the budget the error is thrown.
 */
export function settleAttempt(
  host: CallHost,
  call: PreparedCall,
  raw: ProviderOutput,
  attempts: Attempt[],
  repairsDone: number,
):
  | { output: ChatModelOutput; guidance?: undefined; error?: undefined }
  | { output?: undefined; guidance: Message[]; error: ChatModelError } {
  try {
    const repairs: Repair[] = [];
    const final = finalizeOutput(raw, call.rules, repairs);
    attempts.push(attemptOf(raw, undefined, final.usage));
    return { output: completeOutput(final, repairs, call, attempts) };
  } catch (error) {
    if (!isOutputError(error)) throw error;
    attempts.push(attemptOf(raw, error.message));
    if (repairsDone >= host.maxRepairAttempts) throw error;
    if (host.emitter.listening.repair) {
      host.emitter.emit("repair", { input: call.input, callId: call.callId, attempt: attempts.length, error });
    }
    return { guidance: repairGuidance(error, call.plan.allowedTools), error };
  }
}

/** One attempt's record; `usage` when the caller already normalised it. */
export function attemptOf(raw: ProviderOutput, rejected?: string, usage = normalizeUsage(raw.usage)): Attempt {
  const attempt: Attempt = { usage, finishReason: raw.finishReason ?? "other" };
  if (rejected !== undefined) attempt.rejected = rejected;
  return attempt;
}

/** The caller's output: the final attempt's content (the object itself), every attempt's usage summed. */
export function completeOutput(
  final: FinalOutput,
  repairs: Repair[],
  call: PreparedCall,
  attempts: Attempt[],
): ChatModelOutput {
  if (attempts.length > 1) final.usage = sumUsage(attempts.map((attempt) => attempt.usage));
  final.meta = { toolChoice: call.plan.rung, repairs, attempts, cacheHit: false, model: modelOf(call) };
  return final as ChatModelOutput;
}

/** The model that answers a call, for `meta.model`. */
export function modelOf(call: PreparedCall): ModelRef {
  return { providerId: call.rules.providerId, modelId: call.rules.modelId };
}

export function sumUsage(usages: Usage[]): Usage {
  const total = emptyUsage();
  for (const usage of usages) {
    total.inputTokens += usage.inputTokens;
    total.outputTokens += usage.outputTokens;
    total.totalTokens += usage.totalTokens;
    if (usage.reasoningTokens !== undefined)
      total.reasoningTokens = (total.reasoningTokens ?? 0) + usage.reasoningTokens;
    if (usage.cachedInputTokens !== undefined)
      total.cachedInputTokens = (total.cachedInputTokens ?? 0) + usage.cachedInputTokens;
  }
  return total;
}
