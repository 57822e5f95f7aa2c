import type { Message } from "../messages.js";
import type { Attempt, ChatModelOutput } from "../output.js";
import type { CallHost } from "./call-host.js";
import { finalizeOutput } from "./finalize-output.js";
import { attemptOf, canRepair, completeOutput, isOutputError } from "./output-errors.js";
import type { PreparedCall } from "./prepare-call.js";
import { repairGuidance } from "./repair-guidance.js";
import type { CallState } from "./request-with-retry.js";
import { requestWithRetry } from "./request-with-retry.js";

/** A non-streamed call: attempts with transport retries, re-asked while the output is unusable. */
export async function runCreate(host: CallHost, call: PreparedCall, signal: AbortSignal): Promise<ChatModelOutput> {
  const state: CallState = { call, requests: 0, learned: false };
  const attempts: Attempt[] = [];
  let guidance: Message[] = [];
  for (let repairs = 0; ; repairs++) {
    const raw = await requestWithRetry(host, state, guidance, signal, (input, context) => host.request(input, context));
    try {
      const final = finalizeOutput(raw, state.call.rules);
      attempts.push(attemptOf(raw));
      return completeOutput(final, state.call, attempts);
    } catch (error) {
      if (!isOutputError(error)) throw error;
      attempts.push(attemptOf(raw, error.message));
      if (!canRepair(repairs, host.maxRepairAttempts)) throw error;
      if (host.emitter.listenerCount("repair") > 0) {
        host.emitter.emit("repair", { input: call.input, attempt: attempts.length, error });
      }
      guidance = repairGuidance(error, state.call.plan.allowedTools);
    }
  }
}
