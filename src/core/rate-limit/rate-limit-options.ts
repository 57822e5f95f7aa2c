/**
 * A Redis client the budget is kept in: node-redis (`createClient()` from `redis` or
 * `@redis/client`, v4 or later) or ioredis, connected by the caller (keelson never opens or closes it).
 */
export type RateLimitStore = object;

/** How many calls a model may send: per endpoint and model, held before they are sent until the budget allows them. */
export interface RateLimitOptions {
  /** Requests per minute: that many go at once, the next waits for the window to pass (a full bucket). @default no limit */
  requestsPerMinute?: number | undefined;
  /**
   * Tokens per minute, counted up front from the request's estimate (its text at ~4 characters a
   * token, plus `maxTokens`) and settled from the usage the provider reports. @default no limit
   */
  tokensPerMinute?: number | undefined;
  /** Requests in flight at once, in this process (a stream is in flight until it ends). @default no limit */
  maxConcurrent?: number | undefined;
  /**
   * A Redis client: every process using the same store shares one budget per endpoint and model,
   * and a 429's `Retry-After` seen by one pauses them all. While it cannot be reached, each
   * process keeps the budget on its own (one `warning` event says so). @default none (per process)
   */
  store?: RateLimitStore | undefined;
  /**
   * The window the per-minute budgets are counted over, in whole seconds (as milliseconds): with
   * `windowMs: 1000`, `requestsPerMinute: 120` lets 2 requests through each second. @default 60000
   */
  windowMs?: number | undefined;
  /** How long one operation on the store may take before the process falls back to its own budget. @default 500 */
  storeTimeoutMs?: number | undefined;
}

/** Checks the options as the model is built: a clear TypeError naming what is wrong. */
export function checkRateLimitOptions(options: RateLimitOptions): void {
  if (options === null || typeof options !== "object") {
    throw new TypeError(`rateLimit must be an object such as { requestsPerMinute: 60 }, got ${String(options)}.`);
  }
  for (const name of ["requestsPerMinute", "tokensPerMinute", "maxConcurrent"] as const) {
    const value = options[name];
    if (value !== undefined && !(typeof value === "number" && Number.isInteger(value) && value >= 1)) {
      throw new TypeError(`rateLimit.${name} must be a positive integer, got ${String(value)}.`);
    }
  }
  const { windowMs, storeTimeoutMs, store } = options;
  if (windowMs !== undefined && !(Number.isInteger(windowMs) && windowMs >= 1000 && windowMs % 1000 === 0)) {
    throw new TypeError(
      `rateLimit.windowMs must be a whole number of seconds in milliseconds (1000, 2000, …), got ${String(windowMs)}.`,
    );
  }
  for (const name of ["requestsPerMinute", "tokensPerMinute"] as const) {
    const value = options[name];
    // A window shorter than one request of the budget would let more through than it asks for.
    if (value !== undefined && (value * (windowMs ?? 60_000)) / 60_000 < 1) {
      throw new TypeError(
        `rateLimit.windowMs (${String(windowMs)}) is too short for ${name}: ${value}: a window must allow at least one; use a longer windowMs.`,
      );
    }
  }
  if (storeTimeoutMs !== undefined && !(typeof storeTimeoutMs === "number" && storeTimeoutMs > 0)) {
    throw new TypeError(
      `rateLimit.storeTimeoutMs must be a positive number of milliseconds, got ${String(storeTimeoutMs)}.`,
    );
  }
  if (store !== undefined && typeof (store as { multi?: unknown } | null)?.multi !== "function") {
    throw new TypeError(
      "rateLimit.store must be a connected Redis client (node-redis createClient() or ioredis), e.g. { store: redisClient }.",
    );
  }
}
