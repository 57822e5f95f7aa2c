import type { Attempt, ChatModelOutput, ProviderOutput } from "../output.js";
import type { CallHost } from "./call-host.js";
import { settleAttempt } from "./settle-attempt.js";
import type { PreparedCall } from "./prepare-call.js";
import type { AttemptRequest, CallState } from "./request-with-retry.js";
import { requestWithRetry } from "./request-with-retry.js";

/** A non-streamed call: attempts with transport retries, re-asked while the output is unusable. */
export async function runCreate(host: CallHost, call: PreparedCall, signal: AbortSignal): Promise<ChatModelOutput> {
  const state: CallState = { call, requests: 0, learned: false };
  const request: AttemptRequest<ProviderOutput> = { host, state, guidance: [], signal, send: host.request };
  const attempts: Attempt[] = [];
  for (let repairs = 0; ; repairs++) {
    const raw = await requestWithRetry(request);
    const settled = settleAttempt(host, state.call, raw, attempts, repairs);
    if (settled.output) return settled.output;
    request.guidance = settled.guidance;
  }
}
