import { throwIfAborted } from "../../internal/abort.js";
import { ProviderError } from "../errors/provider-error.js";
import type { ProviderInput, RunContext } from "../input.js";
import type { Message } from "../messages.js";
import { withTransportRetry } from "../retry/with-transport-retry.js";
import type { TransportRetryOptions } from "../retry/with-transport-retry.js";
import type { CallHost } from "./call-host.js";
import type { PreparedCall } from "./prepare-call.js";
import { providerInput } from "./provider-input.js";

export interface CallState {
  call: PreparedCall;
  /** Requests made so far in this call (transport retries and repairs alike). */
  requests: number;
  learned: boolean;
}

/** One attempt's request, as the steps of sending it need it (a call's attempts share one, its guidance set per re-ask). */
export interface AttemptRequest<T> {
  readonly host: CallHost;
  readonly state: CallState;
  /** Temporary repair guidance sent after the caller's messages. */
  guidance: readonly Message[];
  readonly signal: AbortSignal;
  readonly send: (input: ProviderInput, context: RunContext) => Promise<T>;
}

/**
 * Sends one attempt with transport retries. A provider's 400 that refuses a tool_choice value is
 * learned from once, and the same attempt goes again on the next rung without spending a retry.
 */
export async function requestWithRetry<T>(request: AttemptRequest<T>): Promise<T> {
  throwIfAborted(request.signal);
  let result: T;
  try {
    result = await sendFirst(request);
  } catch (error) {
    result = await retryAfter(request, error);
  }
  // A call whose signal aborted while its request (or a retry of it) came back ends with the AbortError.
  throwIfAborted(request.signal);
  return result;
}

/** An attempt's request, sent once: the adapter's own promise. */
function sendFirst<T>({ state, guidance, signal, send }: AttemptRequest<T>): Promise<T> {
  state.requests++;
  return send(providerInput(state.call, guidance, signal), { signal, attempt: state.requests, call: state.call });
}

/**
 * The rest of an attempt once its first request failed: that failure is the retry loop's first
 * attempt (learned from, or thrown when it is not retryable); the retry and learning steps are
 * built only now (nearly every call is answered at once).
 */
function retryAfter<T>(request: AttemptRequest<T>, error: unknown): Promise<T> {
  return withTransportRetry(
    (attempt) => (attempt === 1 ? learnFrom(request, error) : sendLearning(request)),
    request.signal,
    request.state.call.maxRetries,
    retryOptions(request),
  );
}

function retryOptions({ host, state }: AttemptRequest<unknown>): TransportRetryOptions {
  return {
    ...host.retry,
    onRetry: (attempt, error, delayMs) => {
      if (host.emitter.listening.retry) {
        host.emitter.emit("retry", { input: state.call.input, callId: state.call.callId, attempt, error, delayMs });
      }
    },
  };
}

async function sendLearning<T>(request: AttemptRequest<T>): Promise<T> {
  try {
    return await sendFirst(request);
  } catch (error) {
    return await learnFrom(request, error);
  }
}

/** The attempt sent again on the rung a refused tool_choice leads to; otherwise the error, thrown. */
async function learnFrom<T>(request: AttemptRequest<T>, error: unknown): Promise<T> {
  const { host, state } = request;
  if (state.learned || !ProviderError.isInstance(error) || !error.rejectedParameter) throw error;
  const replanned = host.learn(error, state.call);
  if (!replanned) throw error;
  state.learned = true;
  state.call = replanned;
  return await sendFirst(request);
}
