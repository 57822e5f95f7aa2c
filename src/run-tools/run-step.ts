import type { ToolCall, ToolMessage } from "../core/messages.js";
import type { ChatModelOutput } from "../core/output.js";
import type { Usage } from "../core/usage.js";
import type { PendingApproval } from "./approvals.js";

/** What became of one tool call of a step. */
export interface ToolResult<Call extends ToolCall<string, unknown> = ToolCall> {
  toolCall: Call;
  /** This execution's id, `<runId>:step-<n>:call-<i>`. */
  executionId: string;
  /** What `execute` returned, or the refusal text when the call was refused. */
  result?: unknown;
  /** What `execute` (or `authorize`) threw, or why its result failed the tool's `outputSchema`; the model was sent it as an error result. */
  error?: unknown;
  /** The reason the call was refused, by `authorize` or a person (the tool was not run). */
  refused?: string;
  /** The tool message the model is sent for this call. */
  message: ToolMessage;
  /** How long `authorize` and `execute` took, in milliseconds. */
  durationMs: number;
}

/** One model call of a run and the tools it ran. */
export interface RunStep<Call extends ToolCall<string, unknown> = ToolCall> {
  /** 0 for the first model call. */
  stepIndex: number;
  /** The model's output: the whole assistant message, its tool calls, usage and `meta`. */
  output: ChatModelOutput<Call>;
  /** One per executed call, in call order (calls to tools without `execute` are not executed). */
  toolResults: ToolResult<Call>[];
  /** The step's tokens (the model call's `usage`). */
  usage: Usage;
  /** The model call and the tools, in milliseconds. */
  durationMs: number;
}

/** A step's calls all settled, or some waiting for a person (none of the step's calls run then). */
export type StepOutcome = { results: ToolResult[]; pending?: undefined } | { pending: PendingApproval[] };
