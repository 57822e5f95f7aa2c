import type { ToolCall, ToolMessage } from "../core/messages.js";
import type { ChatModelOutput } from "../core/output.js";
import type { Usage } from "../core/usage.js";

/** What became of one tool call of a step. */
export interface ToolResult {
  toolCall: ToolCall;
  /** What `execute` returned, or the refusal text when `authorize` refused the call. */
  result?: unknown;
  /** What `execute` (or `authorize`) threw; the model was sent it as an error result. */
  error?: unknown;
  /** The reason `authorize` refused the call (the tool was not run). */
  refused?: string;
  /** The tool message the model is sent for this call. */
  message: ToolMessage;
  /** How long `authorize` and `execute` took, in milliseconds. */
  durationMs: number;
}

/** One model call of a run and the tools it ran. */
export interface RunStep {
  /** 0 for the first model call. */
  stepIndex: number;
  /** The model's output: the whole assistant message, its tool calls, usage and `meta`. */
  output: ChatModelOutput;
  /** One per executed call, in call order (calls to tools without `execute` are not executed). */
  toolResults: ToolResult[];
  /** The step's tokens (the model call's `usage`). */
  usage: Usage;
  /** The model call and the tools, in milliseconds. */
  durationMs: number;
}
