import type { Attempt, ChatModelOutput, ProviderOutput } from "../output.js";
import { messageContent } from "./finalize-output.js";
import type { PreparedCall } from "./prepare-call.js";
import { attemptOf } from "./settle-attempt.js";

/** The output of a stream a `newToken` listener stopped: what arrived, unvalidated, finish reason "other". */
export function partialOutput(raw: ProviderOutput, call: PreparedCall, attempts: Attempt[]): ChatModelOutput {
  attempts.push(attemptOf({ ...raw, finishReason: "other" }));
  const text = raw.text ?? "";
  const reasoning = raw.reasoning ?? "";
  return {
    message: { role: "assistant", content: messageContent(text, reasoning, raw.reasoningSignature, []) },
    text,
    toolCalls: [],
    reasoning,
    finishReason: "other",
    usage: attempts[attempts.length - 1]!.usage,
    raw: raw.raw,
    meta: { toolChoice: call.plan.rung, repairs: [], attempts, cacheHit: false },
  };
}
