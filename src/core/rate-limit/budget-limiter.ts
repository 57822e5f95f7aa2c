import { createHash } from "node:crypto";
import { withTimeout } from "../../internal/with-timeout.js";
import type { RateLimiterAbstract, RateLimiterRes } from "rate-limiter-flexible";
import * as flexible from "rate-limiter-flexible";
import { ProviderError } from "../errors/provider-error.js";
import type { ProviderInput } from "../input.js";
import type { Usage } from "../usage.js";
import { delay, throwIfAborted } from "../../internal/abort.js";
import type { CallLimiter, CallPermit, BudgetKey } from "./call-limiter.js";
import { ConcurrencySlots } from "./concurrency-slots.js";
import { estimateTokens } from "./estimate-tokens.js";
import type { RateLimitOptions } from "./rate-limit-options.js";

/** How long a process keeps its own budget after the store failed, before it asks the store again. */
const storeRetryMs = 5_000;
/** The shortest wait before a held request asks again (a window that ends now is not a busy loop). */
const minWaitMs = 10;

/** One budget (requests, tokens or the pause a 429 set), kept in the store and, while it is down, in the process. */
interface Budget {
  shared: RateLimiterAbstract | undefined;
  local: RateLimiterAbstract;
}

/**
 * The budget of one endpoint and model, counted by rate-limiter-flexible: fixed windows (a full
 * bucket), in the process or in Redis. Requests wait for the requests, then the tokens budget;
 * a 429's `Retry-After` blocks a pause key every process reads before it sends.
 */
export class BudgetLimiter implements CallLimiter {
  readonly #key: string;
  readonly #storeTimeoutMs: number;
  readonly #requests: Budget | undefined;
  readonly #tokens: Budget | undefined;
  readonly #tokenCap: number;
  readonly #pause: Budget;
  readonly #slots: ConcurrencySlots | undefined;
  /** Until when (Date.now()) the store is left alone after it failed; whether that was said in a warning. */
  #storeDownUntil = 0;
  #warned = false;

  constructor(options: RateLimitOptions, model: BudgetKey) {
    const windowMs = options.windowMs ?? 60_000;
    const duration = windowMs / 1000;
    const perWindow = (perMinute: number) => Math.max(1, Math.floor((perMinute * windowMs) / 60_000));
    const budget = (name: string, points: number, seconds: number): Budget => ({
      shared:
        options.store === undefined
          ? undefined
          : new flexible.RateLimiterRedis({
              storeClient: options.store,
              // ioredis defines commands; node-redis (any version from 4) takes them as methods.
              useRedisPackage: typeof (options.store as { defineCommand?: unknown }).defineCommand !== "function",
              rejectIfRedisNotReady: true,
              keyPrefix: `keelson:rate-limit:${name}`,
              points,
              duration: seconds,
            }),
      local: new flexible.RateLimiterMemory({ keyPrefix: `keelson:rate-limit:${name}`, points, duration: seconds }),
    });
    // The endpoint may hold credentials (a URL's user and password): only its hash goes into the key.
    const endpoint = createHash("sha256").update(model.endpoint).digest("hex").slice(0, 16);
    this.#key = `${model.providerId}:${model.modelId}:${endpoint}`;
    this.#storeTimeoutMs = options.storeTimeoutMs ?? 500;
    if (options.requestsPerMinute !== undefined)
      this.#requests = budget("requests", perWindow(options.requestsPerMinute), duration);
    this.#tokenCap = options.tokensPerMinute === undefined ? 0 : perWindow(options.tokensPerMinute);
    if (options.tokensPerMinute !== undefined) this.#tokens = budget("tokens", this.#tokenCap, duration);
    // A pause is a blocked key: one point, blocked for the Retry-After.
    this.#pause = budget("pause", 1, 1);
    if (options.maxConcurrent !== undefined) this.#slots = new ConcurrencySlots(options.maxConcurrent);
  }

  async acquire(request: ProviderInput, signal: AbortSignal, warn: (message: string) => void): Promise<CallPermit> {
    const release = this.#slots ? await this.#slots.take(signal) : () => undefined;
    try {
      // A request larger than a whole window's budget goes alone in a window rather than never.
      const tokens = this.#tokens ? Math.min(estimateTokens(request), this.#tokenCap) : 0;
      const windowEnds = await this.#waitForBudget(tokens, signal, warn);
      return this.#permit(tokens, windowEnds, release, warn);
    } catch (error) {
      release();
      throw error;
    }
  }

  /** Waits until the pause is over and the budgets take the request; returns when its tokens' window ends. */
  async #waitForBudget(tokens: number, signal: AbortSignal, warn: (message: string) => void): Promise<number> {
    for (;;) {
      throwIfAborted(signal);
      const paused = await this.#run(this.#pause, warn, (limiter) => limiter.get(this.#key));
      if (paused && paused.consumedPoints > 1) {
        await delay(Math.max(minWaitMs, paused.msBeforeNext), signal);
        continue;
      }
      const requests = this.#requests;
      if (requests) {
        const refused = await this.#consume(requests, 1, warn);
        if (refused) {
          await delay(refused, signal);
          continue;
        }
      }
      if (!this.#tokens || tokens === 0) return Infinity;
      const consumed = await this.#run(this.#tokens, warn, (limiter) => limiter.consume(this.#key, tokens)).then(
        (result) => ({ result }),
        (refusal: unknown) => (isLimiterRes(refusal) ? { refusal } : Promise.reject(refusal)),
      );
      if ("result" in consumed) return Date.now() + consumed.result.msBeforeNext;
      // The request's point goes back: it waits for the tokens' window, and asks for both again then.
      if (requests) await this.#run(requests, warn, (limiter) => limiter.reward(this.#key, 1)).catch(() => undefined);
      await delay(Math.max(minWaitMs, consumed.refusal.msBeforeNext), signal);
    }
  }

  /** Consumes points; returns how long to wait when the window has no room for them (0 when taken). */
  async #consume(budget: Budget, points: number, warn: (message: string) => void): Promise<number> {
    try {
      await this.#run(budget, warn, (limiter) => limiter.consume(this.#key, points));
      return 0;
    } catch (refusal) {
      if (isLimiterRes(refusal)) return Math.max(minWaitMs, refusal.msBeforeNext);
      throw refusal;
    }
  }

  #permit(tokens: number, windowEnds: number, release: () => void, warn: (message: string) => void): CallPermit {
    let ended = false;
    const end = (): boolean => {
      if (ended) return false;
      ended = true;
      release();
      return true;
    };
    return {
      settle: (usage: Partial<Usage> | undefined) => {
        if (!end() || !this.#tokens || usage === undefined) return;
        const used = usage.totalTokens ?? (usage.inputTokens ?? 0) + (usage.outputTokens ?? 0);
        const difference = Math.round(used) - tokens;
        // Settled in the window that counted the estimate; a later window owes nothing.
        if (difference === 0 || !Number.isFinite(difference) || Date.now() >= windowEnds) return;
        this.#run(this.#tokens, warn, (limiter) =>
          difference > 0 ? limiter.penalty(this.#key, difference) : limiter.reward(this.#key, -difference),
        ).catch(() => undefined);
      },
      fail: async (error: unknown) => {
        if (!end()) return;
        if (!ProviderError.isInstance(error) || error.reason !== "rate-limit" || !(error.retryAfterMs! > 0)) return;
        // Whole seconds, as the store keeps them; at least one (a zero block would never expire).
        const seconds = Math.max(1, Math.ceil(error.retryAfterMs! / 1000));
        await this.#run(this.#pause, warn, (limiter) => limiter.block(this.#key, seconds)).catch(() => undefined);
      },
    };
  }

  /**
   * One operation on a budget: on the store while it answers in time, else on the process's own
   * budget (a `warning` says so once per outage). A refusal (a RateLimiterRes) is the answer, not a failure.
   */
  async #run<T>(
    budget: Budget,
    warn: (message: string) => void,
    operation: (limiter: RateLimiterAbstract) => Promise<T>,
  ): Promise<T> {
    if (budget.shared && Date.now() >= this.#storeDownUntil) {
      try {
        const result = await withTimeout(operation(budget.shared), this.#storeTimeoutMs);
        this.#warned = false;
        return result;
      } catch (error) {
        if (isLimiterRes(error)) {
          this.#warned = false;
          throw error;
        }
        this.#storeDownUntil = Date.now() + storeRetryMs;
        if (!this.#warned) {
          this.#warned = true;
          warn(
            `The rate-limit store did not answer (${error instanceof Error ? error.message : String(error)}): ` +
              "this process keeps its own budget until it does, so the fleet may send more than the shared budget. " +
              "Check the Redis client given as rateLimit.store.",
          );
        }
      }
    }
    return operation(budget.local);
  }
}

function isLimiterRes(value: unknown): value is RateLimiterRes {
  return value instanceof flexible.RateLimiterRes;
}
