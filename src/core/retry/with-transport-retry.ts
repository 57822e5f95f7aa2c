import { abortError, delay, throwIfAborted } from "../../internal/abort.js";
import { ProviderError } from "../errors/provider-error.js";
import type { ResolvedRetryOptions } from "./retry-options.js";

export interface TransportRetryOptions extends ResolvedRetryOptions {
  signal: AbortSignal;
  onRetry?: (attempt: number, error: Error, delayMs: number) => void;
}

/**
 * Runs `request`, retrying retryable provider errors with exponential backoff and jitter, or after
 * the `Retry-After` the provider asked for (up to the cap). p-retry owns the loop; keelson owns the
 * delay, so every wait ends promptly on abort. The first attempt runs before p-retry is involved
 * (setting it up costs more than the rest of a call's bookkeeping; loading it, more than a call):
 * a failed first attempt becomes p-retry's attempt 1, replayed, so retries go as before.
 */
export async function withTransportRetry<T>(
  request: (attempt: number) => Promise<T>,
  options: TransportRetryOptions,
): Promise<T> {
  let firstError: unknown;
  try {
    throwIfAborted(options.signal);
    const result = await request(1);
    throwIfAborted(options.signal);
    return result;
  } catch (error) {
    if (options.signal.aborted) throw abortError(options.signal);
    // Nothing to retry: fail now, without loading p-retry to learn the same thing.
    if (options.maxRetries === 0 || !isRetryable(error)) throw error;
    firstError = error;
  }
  try {
    const { default: pRetry } = await import("p-retry");
    return await pRetry((attempt) => (attempt === 1 ? Promise.reject(firstError) : request(attempt)), {
      retries: options.maxRetries,
      minTimeout: 0,
      maxTimeout: 0,
      signal: options.signal,
      shouldRetry: async ({ error, attemptNumber }) => {
        if (!isRetryable(error)) return false;
        const delayMs = retryDelay(error, attemptNumber, options);
        options.onRetry?.(attemptNumber, error, delayMs);
        await delay(delayMs, options.signal);
        return true;
      },
    });
  } catch (error) {
    if (options.signal.aborted) throw abortError(options.signal);
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
