import type { ChatModelError } from "./errors/chat-model-error.js";
import type { ChatModelInput } from "./input.js";
import type { ChatModelOutput, ToolChoiceRung } from "./output.js";
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
  /** How long keelson waits before the next attempt. */
  delayMs: number;
}

export interface RepairEvent extends EventBase {
  attempt: number;
  /** What was wrong with the output (a ToolCallError, EmptyResponseError or StructuredOutputError). */
  error: ChatModelError;
}

export interface FallbackEvent extends EventBase {
  rung: Exclude<ToolChoiceRung, "native">;
  /** Why the requested tool_choice could not be sent as is. */
  reason: string;
}

export interface CacheHitEvent extends EventBase {
  key: string;
}

export interface WarningEvent extends EventBase {
  code: "learned-tool-choice" | "cache-error" | "unsupported-parameter";
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
