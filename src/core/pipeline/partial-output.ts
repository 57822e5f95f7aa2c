import type { Attempt, ChatModelOutput, ProviderOutput } from "../output.js";
import { reasoningBlocksOf } from "../stream/reasoning-deltas.js";
import { messageContent } from "./finalize-output.js";
import type { PreparedCall } from "./prepare-call.js";
import { attemptOf, modelOf, sumUsage } from "./settle-attempt.js";

/** The output of a stream a `newToken` listener stopped: what arrived, unvalidated, finish reason "other"; usage summed over the attempts. */
export function partialOutput(raw: ProviderOutput, call: PreparedCall, attempts: Attempt[]): ChatModelOutput {
  attempts.push(attemptOf({ ...raw, finishReason: "other" }));
  const text = raw.text ?? "";
  const reasoning = raw.reasoning ?? "";
  return {
    message: { role: "assistant", content: messageContent(text, reasoningBlocksOf(raw), []) },
    text,
    toolCalls: [],
    reasoning,
    finishReason: "other",
    // Every attempt was paid for, the re-asked ones too.
    usage: attempts.length > 1 ? sumUsage(attempts.map((attempt) => attempt.usage)) : attempts[0]!.usage,
    raw: raw.raw,
    meta: { toolChoice: call.plan.rung, repairs: [], attempts, cacheHit: false, model: modelOf(call) },
  };
}
