import type { ToolCall } from "../core/messages.js";
import type { RunStep } from "./run-step.js";

/** The fields of every tool event: the call, its execution's id and its step. */
export interface ToolEventBase<Call extends ToolCall<string, unknown> = ToolCall> {
  /** The step the call belongs to (0 for the first model call; a resumed call: its turn's place in the transcript). */
  step: number;
  executionId: string;
  toolCall: Call;
}

/**
 * What `onEvent` is told, in order: `step-start` before each model call, `tool-requested` for each
 * call the model made, then `tool-approval-requested` (the call waits), `tool-refused` (`authorize`
 * or a person refused it) or `tool-finished` (it ran: its `durationMs` and its result or error), and
 * `step-finish` with the whole step.
 */
export type RunEvent<Call extends ToolCall<string, unknown> = ToolCall> =
  | { type: "step-start"; step: number }
  | ({ type: "tool-requested" } & ToolEventBase<Call>)
  | ({ type: "tool-approval-requested"; reason?: string } & ToolEventBase<Call>)
  | ({ type: "tool-refused"; reason: string } & ToolEventBase<Call>)
  | ({ type: "tool-finished"; durationMs: number; result?: unknown; error?: unknown } & ToolEventBase<Call>)
  | { type: "step-finish"; step: number; runStep: RunStep<Call> };

/** A run's listener, guarded: one that throws is ignored (it never ends or breaks the run). */
export function guardedListener<Call extends ToolCall<string, unknown>>(
  listener: ((event: RunEvent<Call>) => void) | undefined,
): ((event: RunEvent<Call>) => void) | undefined {
  if (listener === undefined) return undefined;
  if (typeof listener !== "function") throw new TypeError(`onEvent must be a function, got ${typeof listener}.`);
  return (event) => {
    try {
      listener(event);
    } catch {
      // A listener's failure is its own: the run goes on.
    }
  };
}
