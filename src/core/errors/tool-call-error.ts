import type { ChatModelErrorOptions } from "./chat-model-error.js";
import { ChatModelError } from "./chat-model-error.js";

const marker = "keelson.error.ToolCallError";
const symbol = Symbol.for(marker);

export type ToolCallErrorKind = "unknown-tool" | "invalid-args" | "tool-choice-violation" | "parallel-calls";

export interface ToolCallErrorOptions extends ChatModelErrorOptions {
  kind: ToolCallErrorKind;
  /** What keelson tells the model when it re-asks. */
  feedback: string;
  toolName?: string | undefined;
  /** The model's raw output for the offending call or reply. */
  text?: string | undefined;
}

/** The model's tool call was unusable: unknown tool, invalid arguments, or tool_choice not honoured. */
export class ToolCallError extends ChatModelError {
  private readonly [symbol] = true;
  readonly kind: ToolCallErrorKind;
  readonly feedback: string;
  readonly toolName: string | undefined;
  readonly text: string | undefined;

  constructor(message: string, options: ToolCallErrorOptions) {
    super(message, options);
    this.name = "ToolCallError";
    this.kind = options.kind;
    this.feedback = options.feedback;
    this.toolName = options.toolName;
    this.text = options.text;
  }

  static override isInstance(error: unknown): error is ToolCallError {
    return ChatModelError.hasMarker(error, marker);
  }
}
