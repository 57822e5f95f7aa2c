import { throwIfAborted } from "../../internal/abort.js";
import type { Attempt, ChatModelOutput, ProviderOutput } from "../output.js";
import type { CallHost } from "./call-host.js";
import { settleAttempt } from "./settle-attempt.js";
import type { PreparedCall } from "./prepare-call.js";
import type { AttemptRequest, CallState } from "./request-with-retry.js";
import { retryAfter, sendFirst } from "./request-with-retry.js";

/**
 * A non-streamed call: attempts with transport retries, re-asked while the output is unusable.
 * Each attempt's first request is awaited here, in this frame (requestWithRetry's steps, unrolled:
 * an async frame less between the adapter's reply and the caller).
 */
export async function runCreate(host: CallHost, call: PreparedCall, signal: AbortSignal): Promise<ChatModelOutput> {
  const state: CallState = { call, requests: 0, learned: false };
  const request: AttemptRequest<ProviderOutput> = { host, state, guidance: [], signal, send: host.request };
  const attempts: Attempt[] = [];
  for (let repairs = 0; ; repairs++) {
    throwIfAborted(signal);
    let raw: ProviderOutput;
    try {
      raw = await sendFirst(request);
    } catch (error) {
      raw = await retryAfter(request, error);
    }
    throwIfAborted(signal);
    const settled = settleAttempt(host, state.call, raw, attempts, repairs);
    if (settled.output) return settled.output;
    request.guidance = settled.guidance;
  }
}
