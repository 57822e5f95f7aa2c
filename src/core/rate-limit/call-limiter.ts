import type { ProviderInput } from "../input.js";
import type { Usage } from "../usage.js";

/**
 * What holds a model's requests before they are sent: one `acquire` per request (each transport
 * retry and re-ask included), ended by the permit once the request is answered or failed.
 */
export interface CallLimiter {
  /** Resolves once the budget lets `request` go; rejects with the signal's AbortError if it aborts while held. */
  acquire(request: ProviderInput, signal: AbortSignal, warn: (message: string) => void): Promise<CallPermit>;
}

/** One request's share of the budget. Each method may be called once; the first call ends the permit. */
export interface CallPermit {
  /** The request was answered: its tokens settled from the reported usage (the estimate kept without one). */
  settle(usage: Partial<Usage> | undefined): void;
  /**
   * The request failed: a rate limit with `Retry-After` pauses the (shared) budget for that long.
   * Resolves once the pause is recorded (never rejects), so the caller's next request sees it.
   */
  fail(error: unknown): Promise<void>;
}

/** Which budget a model's requests draw on: its provider, endpoint and model. */
export interface BudgetKey {
  providerId: string;
  modelId: string;
  endpoint: string;
}
