import { abortError, delay, throwIfAborted } from "../../internal/abort.js";
import { ProviderError } from "../errors/provider-error.js";
import type { ResolvedRetryOptions } from "./retry-options.js";

/** How the retries after a failed first attempt go (read only once the first attempt has failed). */
export interface TransportRetryOptions extends Omit<ResolvedRetryOptions, "maxRetries"> {
  onRetry?: (attempt: number, error: Error, delayMs: number) => void;
}

/**
 * Runs `request`, retrying retryable provider errors with exponential backoff and jitter, or after
 * the `Retry-After` the provider asked for (up to the cap). p-retry owns the loop; keelson owns the
 * delay, so every wait ends promptly on abort. The first attempt runs before p-retry is involved
 * (setting it up costs more than the rest of a call's bookkeeping; loading it, more than a call):
 * a failed first attempt becomes p-retry's attempt 1, replayed, so retries go as before. The retry
 * options are asked for only then, so a call answered at once builds nothing for retries; and
 * that first attempt is plain promise callbacks, not an async function's frame.
 */
export function withTransportRetry<T>(
  request: (attempt: number) => Promise<T>,
  signal: AbortSignal,
  maxRetries: number,
  retryOptions: () => TransportRetryOptions,
): Promise<T> {
  if (signal.aborted) return Promise.reject(abortError(signal));
  let first: Promise<T>;
  try {
    first = request(1);
  } catch (error) {
    first = Promise.reject(error);
  }
  return first.then(
    (result) => {
      throwIfAborted(signal);
      return result;
    },
    (error: unknown) => {
      if (signal.aborted) throw abortError(signal);
      // Nothing to retry: fail now, without loading p-retry to learn the same thing.
      if (maxRetries === 0 || !isRetryable(error)) throw error;
      return retryAfterFirst(error, request, signal, maxRetries, retryOptions());
    },
  );
}

/** The retries after a failed first attempt: p-retry's loop, the first failure replayed as its attempt 1. */
async function retryAfterFirst<T>(
  firstError: ProviderError,
  request: (attempt: number) => Promise<T>,
  signal: AbortSignal,
  maxRetries: number,
  options: TransportRetryOptions,
): Promise<T> {
  try {
    const { default: pRetry } = await import("p-retry");
    return await pRetry((attempt) => (attempt === 1 ? Promise.reject(firstError) : request(attempt)), {
      retries: maxRetries,
      minTimeout: 0,
      maxTimeout: 0,
      signal,
      shouldRetry: async ({ error, attemptNumber }) => {
        if (!isRetryable(error)) return false;
        const delayMs = retryDelay(error, attemptNumber, options);
        options.onRetry?.(attemptNumber, error, delayMs);
        await delay(delayMs, signal);
        return true;
      },
    });
  } catch (error) {
    if (signal.aborted) throw abortError(signal);
    throw error;
  }
}

function isRetryable(error: unknown): error is ProviderError {
  return ProviderError.isInstance(error) && error.isRetryable;
}

function retryDelay(error: ProviderError, attempt: number, options: TransportRetryOptions): number {
  if (error.retryAfterMs !== undefined) {
    if (error.retryAfterMs > options.maxRetryAfterMs) {
      throw new ProviderError(
        `${error.message} The provider asked to wait ${Math.ceil(error.retryAfterMs / 1000)} s before retrying, ` +
          `longer than retry.maxRetryAfterMs (${options.maxRetryAfterMs} ms): raise it to wait, or retry later.`,
        {
          statusCode: error.statusCode,
          reason: error.reason,
          isRetryable: false,
          retryAfterMs: error.retryAfterMs,
          code: error.code,
          rejectedParameter: error.rejectedParameter,
          providerId: error.providerId,
          modelId: error.modelId,
          cause: error,
        },
      );
    }
    return error.retryAfterMs;
  }
  const exponential = Math.min(options.maxDelayMs, options.initialDelayMs * 2 ** (attempt - 1));
  return Math.round(exponential * (0.5 + Math.random() * 0.5));
}
