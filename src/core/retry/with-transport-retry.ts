import { abortError, delay, throwIfAborted, timeLeft } from "../../internal/abort.js";
import { ProviderError } from "../errors/provider-error.js";
import type { ResolvedRetryOptions } from "./retry-options.js";

/** How the retries after a failed first attempt go. */
export interface TransportRetryOptions extends Omit<ResolvedRetryOptions, "maxRetries"> {
  onRetry?: (attempt: number, error: Error, delayMs: number) => void;
}

/**
 * Runs `request`, retrying retryable provider errors with exponential backoff and jitter, or after
 * the `Retry-After` the provider asked for (up to the cap). p-retry owns the loop; keelson owns the
 * delay, so every wait ends promptly on abort. The first attempt runs before p-retry is involved
 * (loading and setting it up costs more than a call): a failed first attempt becomes p-retry's
 * attempt 1, replayed, so retries go as before. A call's own first request is sent before this
 * (requestWithRetry), which comes in only once that request has failed.
 */
export async function withTransportRetry<T>(
  request: (attempt: number) => Promise<T>,
  signal: AbortSignal,
  maxRetries: number,
  options: TransportRetryOptions,
): Promise<T> {
  let firstError: ProviderError;
  let requests = 1;
  try {
    throwIfAborted(signal);
    const result = await request(1);
    throwIfAborted(signal);
    return result;
  } catch (error) {
    if (signal.aborted) throw abortError(signal);
    // Nothing to retry: fail now, without loading p-retry to learn the same thing.
    if (maxRetries === 0 || !isRetryable(error)) throw countedRequests(error, 1);
    firstError = error;
  }
  try {
    const { default: pRetry } = await import("p-retry");
    return await pRetry(
      (attempt) => {
        if (attempt === 1) return Promise.reject(firstError);
        requests = attempt;
        return request(attempt);
      },
      {
        retries: maxRetries,
        minTimeout: 0,
        maxTimeout: 0,
        signal,
        shouldRetry: async ({ error, attemptNumber }) => {
          if (!isRetryable(error)) return false;
          const delayMs = retryDelay(error, attemptNumber, options, signal);
          options.onRetry?.(attemptNumber, error, delayMs);
          await delay(delayMs, signal);
          return true;
        },
      },
    );
  } catch (error) {
    if (signal.aborted) throw abortError(signal);
    throw countedRequests(error, requests);
  }
}

/**
 * The error saying how many requests were made for it: `attempts`, and after retries the count in
 * its message too (an error after three requests must not read as if one failed). Set once: an
 * error that already carries a count (a nested call's) keeps it.
 */
function countedRequests(error: unknown, requests: number): unknown {
  if (!ProviderError.isInstance(error) || error.attempts !== undefined) return error;
  try {
    error.attempts = requests;
    if (requests > 1) error.message = `${error.message} (${requests} requests were made.)`;
  } catch {
    // A frozen error is passed on as it is.
  }
  return error;
}

function isRetryable(error: unknown): error is ProviderError {
  return ProviderError.isInstance(error) && error.isRetryable;
}

function retryDelay(
  error: ProviderError,
  attempt: number,
  options: TransportRetryOptions,
  signal: AbortSignal,
): number {
  if (error.retryAfterMs !== undefined) {
    const asked = `The provider asked to wait ${Math.ceil(error.retryAfterMs / 1000)} s before retrying`;
    if (error.retryAfterMs > options.maxRetryAfterMs) {
      throw refusedWait(
        error,
        `${asked}, longer than retry.maxRetryAfterMs (${options.maxRetryAfterMs} ms): raise it to wait, or retry later.`,
      );
    }
    // A wait the call's timeout ends first would only turn the rate limit into a TimeoutError, later.
    const left = timeLeft(signal);
    if (error.retryAfterMs > left) {
      throw refusedWait(
        error,
        `${asked}, longer than the ${Math.floor(left)} ms left of the call's timeout: give the call a longer timeout to wait, or retry later.`,
      );
    }
    return error.retryAfterMs;
  }
  const exponential = Math.min(options.maxDelayMs, options.initialDelayMs * 2 ** (attempt - 1));
  return Math.round(exponential * (0.5 + Math.random() * 0.5));
}

/** The provider's error, not retryable, saying why keelson does not wait as it asked (the original as `cause`). */
function refusedWait(error: ProviderError, why: string): ProviderError {
  return new ProviderError(`${error.message} ${why}`, {
    statusCode: error.statusCode,
    reason: error.reason,
    isRetryable: false,
    retryAfterMs: error.retryAfterMs,
    code: error.code,
    rejectedParameter: error.rejectedParameter,
    providerId: error.providerId,
    modelId: error.modelId,
    cause: error,
  });
}
