import type { ChatModelInput, ProviderInput } from "../input.js";
import type { ProviderOutput, ToolChoiceRung } from "../output.js";
import type { ChatModelChunk } from "../stream/chat-model-chunk.js";

/** What a middleware knows of the request it runs around. */
export interface MiddlewareContext {
  readonly providerId: string;
  readonly modelId: string;
  /** The call's number, as its events carry it. */
  readonly callId: number;
  /** 1 for the call's first request; each transport retry and each re-ask is one more. */
  readonly attempt: number;
  /** The tool_choice rung the call is on (the ladder has resolved tools and the response format). */
  readonly rung: ToolChoiceRung;
  /** Ends when the call is aborted or times out: hand it on to anything slow. */
  readonly signal: AbortSignal;
  /** The caller's input, as given (read-only: a caller's messages are never changed). */
  readonly callInput: Readonly<ChatModelInput>;
}

/** What `wrapCreate` runs around: the request's input and what sends it on (to the next middleware, then the provider). */
export interface WrappedCreate {
  readonly input: ProviderInput;
  readonly context: MiddlewareContext;
  /** Sends the request on, with `input` or one of your own; what it returns is the provider's reply. */
  next(input?: ProviderInput): Promise<ProviderOutput>;
}

/** What `wrapStream` runs around: the request's input and what opens the stream further in. */
export interface WrappedStream {
  readonly input: ProviderInput;
  readonly context: MiddlewareContext;
  /** Opens the stream further in, with `input` or one of your own. */
  next(input?: ProviderInput): AsyncIterable<ChatModelChunk>;
}

/**
 * Behaviour composed around a model's requests (the `middleware` option, `wrapChatModel`). Each
 * hook is optional. It runs once per request — each transport retry and each re-ask is a request —
 * after the tool_choice ladder and below the cache. What `wrapCreate` or `wrapStream` returns in
 * the provider's place is read back, repaired and validated like a provider's reply; a
 * `ChatModelError` it throws is handled like the provider's (a retryable `ProviderError` is
 * retried), anything else rejects the call as it is.
 */
export interface ChatModelMiddleware {
  /** Named in the errors about it. @default "middleware #<position>" */
  name?: string;
  /** Rewrites the request before it is sent (for `create` and streams alike). */
  transformInput?(input: ProviderInput, context: MiddlewareContext): ProviderInput | Promise<ProviderInput>;
  /** Runs around a request of `create()`: call `next()` to send it on, or answer in the provider's place. */
  wrapCreate?(call: WrappedCreate): Promise<ProviderOutput>;
  /** Runs around a request of `createStream()`: iterate `next()` to read the provider's chunks, or yield your own. */
  wrapStream?(call: WrappedStream): AsyncIterable<ChatModelChunk>;
}

const hooks = ["transformInput", "wrapCreate", "wrapStream"] as const;

/** A model's middleware, checked as the model is built: a clear TypeError naming the one that is wrong. */
export function checkMiddleware(middleware: unknown): readonly ChatModelMiddleware[] {
  if (!Array.isArray(middleware)) {
    throw new TypeError(`middleware must be an array of middleware objects, got ${String(middleware)}.`);
  }
  middleware.forEach((entry: unknown, index) => {
    if (entry === null || typeof entry !== "object") {
      throw new TypeError(
        `middleware[${index}] must be an object with transformInput, wrapCreate or wrapStream, got ${String(entry)}.`,
      );
    }
    for (const hook of hooks) {
      const value = (entry as Record<string, unknown>)[hook];
      if (value !== undefined && typeof value !== "function") {
        throw new TypeError(`middleware[${index}].${hook} must be a function, got ${typeof value}.`);
      }
    }
  });
  return Object.freeze([...(middleware as ChatModelMiddleware[])]);
}
