import { abortError, delay, throwIfAborted, timeLeft } from "../../internal/abort.js";
import { ProviderError } from "../errors/provider-error.js";
import type { ResolvedRetryOptions } from "./retry-options.js";

/** How the retries after a failed first attempt go. */
export interface TransportRetryOptions extends Omit<ResolvedRetryOptions, "maxRetries"> {
  onRetry?: (attempt: number, error: Error, delayMs: number) => void;
}

/**
 * Runs `request`, retrying retryable provider errors. p-retry does the loop, the exponential backoff
 * with jitter (half to all of `initialDelayMs · 2^(n−1)`, at most `maxDelayMs`) and ends its wait on
 * abort; keelson adds only the wait a provider asked for (`Retry-After`, up to the cap), in p-retry's
 * place for that retry. The first attempt runs before p-retry is involved (loading and setting it up
 * costs more than a call): a failed first attempt becomes p-retry's attempt 1, replayed. A call's own
 * first request is sent before this (requestWithRetry), which comes in only once that request has failed.
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
  // p-retry's backoffs so far: its next wait is bounded by initialDelayMs · 2^backoffs.
  let backoffs = 0;
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
        factor: 2,
        minTimeout: options.initialDelayMs / 2,
        maxTimeout: options.maxDelayMs,
        randomize: true,
        signal,
        // A retry after a Retry-After wait is keelson's: p-retry adds no backoff of its own to it.
        shouldConsumeRetry: ({ error }) => !(isRetryable(error) && error.retryAfterMs !== undefined),
        shouldRetry: async ({ error, attemptNumber }) => {
          if (!isRetryable(error) || attemptNumber > maxRetries) return false;
          if (error.retryAfterMs === undefined) {
            options.onRetry?.(attemptNumber, error, backoffBound(backoffs++, options));
            return true;
          }
          const waitMs = retryAfterWait(error, error.retryAfterMs, options, signal);
          options.onRetry?.(attemptNumber, error, waitMs);
          await delay(waitMs, signal);
          return true;
        },
      },
    );
  } catch (error) {
    if (signal.aborted) throw abortError(signal);
    throw countedRequests(error, requests);
  }
}

/** The longest backoff p-retry waits after `backoffs` earlier ones (it waits half to all of it). */
function backoffBound(backoffs: number, options: TransportRetryOptions): number {
  return Math.min(options.maxDelayMs, options.initialDelayMs * 2 ** backoffs);
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

/** The wait the provider asked for, or its error, not retryable, when keelson will not wait that long. */
function retryAfterWait(
  error: ProviderError,
  retryAfterMs: number,
  options: TransportRetryOptions,
  signal: AbortSignal,
): number {
  const asked = `The provider asked to wait ${Math.ceil(retryAfterMs / 1000)} s before retrying`;
  if (retryAfterMs > options.maxRetryAfterMs) {
    throw refusedWait(
      error,
      `${asked}, longer than retry.maxRetryAfterMs (${options.maxRetryAfterMs} ms): raise it to wait, or retry later.`,
    );
  }
  // A wait the call's timeout ends first would only turn the rate limit into a TimeoutError, later.
  const left = timeLeft(signal);
  if (retryAfterMs > left) {
    throw refusedWait(
      error,
      `${asked}, longer than the ${Math.floor(left)} ms left of the call's timeout: give the call a longer timeout to wait, or retry later.`,
    );
  }
  return retryAfterMs;
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
