/** Transport retries (429, 408, 409, 5xx, network). Output problems use `maxRepairAttempts` instead. */
export interface RetryOptions {
  /** Retries after the first request. @default 2 */
  maxRetries?: number | undefined;
  /** First backoff delay; it doubles each retry, with jitter. @default 500 */
  initialDelayMs?: number | undefined;
  /** Longest backoff delay. @default 8000 */
  maxDelayMs?: number | undefined;
  /** Longest `Retry-After` keelson will honour; past it the call fails and says how long was asked. @default 60000 */
  maxRetryAfterMs?: number | undefined;
}

/** Every retry option, with its default. */
export type ResolvedRetryOptions = { [K in keyof RetryOptions]-?: Exclude<RetryOptions[K], undefined> };

/**
 * The retry options with their defaults, checked. `maxRetries` is the constructor's top-level
 * `maxRetries` (the name calls and `runTools` use), the same setting as `retry.maxRetries`.
 */
export function resolveRetryOptions(options: RetryOptions = {}, maxRetries?: number): ResolvedRetryOptions {
  if (maxRetries !== undefined && options.maxRetries !== undefined && maxRetries !== options.maxRetries) {
    throw new TypeError(
      `maxRetries (${maxRetries}) and retry.maxRetries (${options.maxRetries}) disagree: they are one setting, give it once (maxRetries: ${maxRetries}).`,
    );
  }
  const resolved = {
    maxRetries: maxRetries ?? options.maxRetries ?? 2,
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
