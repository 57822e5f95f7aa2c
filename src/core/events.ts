import type { ChatModelError } from "./errors/chat-model-error.js";
import type { ChatModelInput } from "./input.js";
import type { ChatModelOutput, ModelRef, ToolChoiceRung } from "./output.js";
import type { ChatModelChunk } from "./stream/chat-model-chunk.js";

interface EventBase {
  /** The caller's input of this call. */
  input: ChatModelInput;
  /**
   * The call's number in this process, from 1: every event of one call carries the same, and calls
   * in flight at once have different ones, even when they were given the same input object.
   */
  callId: number;
}

export type StartEvent = EventBase;

export interface NewTokenEvent extends EventBase {
  chunk: ChatModelChunk;
  /** Stops the stream here; the call resolves with the output so far, without an error. */
  abort(): void;
}

export interface RetryEvent extends EventBase {
  /** The attempt that failed, from 1. */
  attempt: number;
  error: Error;
  /** The wait before the next attempt: the provider's `Retry-After`, or the backoff's bound (p-retry waits half to all of it). */
  delayMs: number;
}

export interface RepairEvent extends EventBase {
  attempt: number;
  /** What was wrong with the output (a ToolCallError, EmptyResponseError or StructuredOutputError). */
  error: ChatModelError;
}

/** The call moved down the tool_choice ladder. */
export interface ToolChoiceFallbackEvent extends EventBase {
  rung: Exclude<ToolChoiceRung, "native">;
  /** Why the requested tool_choice could not be sent as is. */
  reason: string;
  failed?: undefined;
}

/** A router (`createRouter`, `withFallbacks`) moved on from a member that failed to the next one. */
export interface ModelFallbackEvent extends EventBase {
  rung?: undefined;
  /** What failed and what is tried next, for a human. */
  reason: string;
  /** The member that failed. */
  failed: ModelRef;
  /** The member tried next. */
  next: ModelRef;
  /** The member's error (after its own retries). */
  error: Error;
}

/** Either kind of fallback: tell them apart by `failed` (set on a model fallback) or `rung` (on the ladder's). */
export type FallbackEvent = ToolChoiceFallbackEvent | ModelFallbackEvent;

export interface CacheHitEvent extends EventBase {
  key: string;
}

export interface WarningEvent extends EventBase {
  code:
    | "learned-tool-choice"
    | "learned-capability"
    | "cache-error"
    | "unsupported-parameter"
    | "rate-limit-store"
    /** A router's health store did not answer: the process routes on its own health meanwhile. */
    | "router-store"
    /** A router left out reasoning another provider signed or encrypted from what a member is sent. */
    | "reasoning-dropped"
    /** A tool result's images or files went in a user message after it: the provider takes only text in a tool result. */
    | "tool-result-media"
    /** A tool's or response format's schema was sent in the form the provider accepts (the changes named). */
    | "schema-projected"
    /** A call's maxTokens was lowered to what fits in the model's context window. */
    | "max-tokens-clamped";
  message: string;
}

export interface SuccessEvent extends EventBase {
  output: ChatModelOutput;
}

export interface ErrorEvent extends EventBase {
  error: Error;
}

export interface FinishEvent extends EventBase {
  output?: ChatModelOutput;
  error?: Error;
}

/** Events of `model.emitter`. Order per call: start → newToken* → success | error → finish. */
export interface ChatModelEvents {
  start: (event: StartEvent) => void;
  newToken: (event: NewTokenEvent) => void;
  retry: (event: RetryEvent) => void;
  repair: (event: RepairEvent) => void;
  fallback: (event: FallbackEvent) => void;
  cacheHit: (event: CacheHitEvent) => void;
  warning: (event: WarningEvent) => void;
  success: (event: SuccessEvent) => void;
  error: (event: ErrorEvent) => void;
  finish: (event: FinishEvent) => void;
}
