import type { ToolCall } from "../core/messages.js";
import type { ChatModelChunk } from "../core/stream/chat-model-chunk.js";
import type { RunStep, ToolResult } from "./run-step.js";

/**
 * What `streamTools` yields, as it happens: `step-start` before each model call, the model's
 * chunks (a `reset` voids what came before it in that step; a `tool-call` chunk carries a call
 * typed like `create`'s), each `tool-result` as its tool settles (in completion order), and
 * `step-finish` with the whole step.
 */
export type RunPart<Call extends ToolCall<string, unknown> = ToolCall> =
  | Exclude<ChatModelChunk, { type: "tool-call" }>
  | { type: "tool-call"; toolCall: Call }
  | { type: "step-start"; stepIndex: number }
  | { type: "tool-result"; stepIndex: number; toolResult: ToolResult<Call> }
  | { type: "step-finish"; step: RunStep<Call> };
