/** Transport retries (429, 408, 409, 5xx, network). Output problems use `maxRepairAttempts` instead. */
export interface RetryOptions {
  /** Retries after the first request. @default 2 */
  maxRetries?: number;
  /** First backoff delay; it doubles each retry, with jitter. @default 500 */
  initialDelayMs?: number;
  /** Longest backoff delay. @default 8000 */
  maxDelayMs?: number;
  /** Longest `Retry-After` keelson will honour; past it the call fails and says how long was asked. @default 60000 */
  maxRetryAfterMs?: number;
}

export type ResolvedRetryOptions = Required<RetryOptions>;

export function resolveRetryOptions(options: RetryOptions = {}): ResolvedRetryOptions {
  const resolved = {
    maxRetries: options.maxRetries ?? 2,
    initialDelayMs: options.initialDelayMs ?? 500,
    maxDelayMs: options.maxDelayMs ?? 8000,
    maxRetryAfterMs: options.maxRetryAfterMs ?? 60_000,
  };
  for (const [name, value] of Object.entries(resolved)) {
    if (!(value >= 0) || (name === "maxRetries" && !Number.isInteger(value))) {
      throw new TypeError(
        `retry.${name} must be a non-negative ${name === "maxRetries" ? "integer" : "number"}, got ${value}.`,
      );
    }
  }
  return resolved;
}
