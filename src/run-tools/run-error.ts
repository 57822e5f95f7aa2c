import { ChatModelError, type ChatModelErrorOptions } from "../core/errors/chat-model-error.js";
import type { Message, ToolCall } from "../core/messages.js";
import type { RunStep } from "./run-step.js";

const marker = "keelson.error.RunError";
const symbol = Symbol.for(marker);

/**
 * Why a run ended without an answer: the model failed after its retries, the run was aborted, a
 * tool threw with `toolErrors: "throw"` (`tool-output`: its result failed its `outputSchema`), or
 * `maxSteps` model calls were made without an answer.
 */
export type RunErrorReason = "model-error" | "aborted" | "tool-error" | "tool-output" | "max-steps" | "budget";

export interface RunErrorOptions extends ChatModelErrorOptions {
  reason: RunErrorReason;
  messages: Message[];
  steps: RunStep[];
  toolCall?: ToolCall | undefined;
}

/**
 * A run that ended without an answer. `messages` and `steps` hold the steps that completed (the
 * turn that failed left out, so `messages` is a valid conversation to retry or continue from);
 * `cause` is what ended it (the model's error, the AbortError, the tool's error).
 */
export class RunError extends ChatModelError {
  private readonly [symbol] = true;
  readonly reason: RunErrorReason;
  /** The transcript of the completed steps: the caller's messages, then each step's assistant and tool messages. */
  readonly messages: Message[];
  /** The completed steps. */
  readonly steps: RunStep[];
  /** With reason `tool-error` or `tool-output`: the call whose tool threw or returned a mismatch. */
  readonly toolCall: ToolCall | undefined;

  constructor(message: string, options: RunErrorOptions) {
    super(message, options);
    this.name = "RunError";
    this.reason = options.reason;
    this.messages = options.messages;
    this.steps = options.steps;
    this.toolCall = options.toolCall;
  }

  static override isInstance(error: unknown): error is RunError {
    return ChatModelError.hasMarker(error, marker);
  }
}
