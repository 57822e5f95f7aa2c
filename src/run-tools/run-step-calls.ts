import type { Message, ToolCall } from "../core/messages.js";
import { describeError, executeStep, ToolFailure, type StepExecution } from "./execute-step.js";
import type { RunError, RunErrorReason } from "./run-error.js";
import type { RunPart } from "./run-part.js";
import type { StepOutcome, ToolResult } from "./run-step.js";

/** What every step of a run shares when it runs its calls: the execution settings, the run's id, and how the run fails. */
export interface StepCalls extends Pick<
  StepExecution,
  "tools" | "authorize" | "toolErrors" | "concurrency" | "signal" | "aborted" | "approvals" | "emit"
> {
  runId: string;
  /** Whether the run yields each result as it settles. */
  streamed: boolean;
  runError(reason: RunErrorReason, message: string, cause: unknown, toolCall?: ToolCall): RunError;
  abortedAt(stepIndex: number): RunError;
}

/** A step's calls run (or held), their results yielded as they settle when streamed. */
export async function* runStepCalls(
  run: StepCalls,
  calls: readonly ToolCall[],
  stepIndex: number,
  turn: number,
  indexes: readonly number[],
  messages: readonly Message[],
): AsyncGenerator<RunPart, StepOutcome, undefined> {
  const settled: ToolResult[] = [];
  let wake: (() => void) | undefined;
  const execution: StepExecution = {
    tools: run.tools,
    authorize: run.authorize,
    toolErrors: run.toolErrors,
    concurrency: run.concurrency,
    signal: run.signal,
    aborted: run.aborted,
    stepIndex,
    messages,
    approvals: run.approvals,
    executionIds: indexes.map((index) => `${run.runId}:step-${turn}:call-${index}`),
    emit: run.emit,
    onResult: run.streamed
      ? (result) => {
          settled.push(result);
          wake?.();
        }
      : undefined,
  };
  const outcome = executeStep(calls, execution);
  try {
    if (run.streamed) {
      let done = false;
      const finish = () => {
        done = true;
        wake?.();
      };
      outcome.then(finish, finish);
      for (;;) {
        for (let result = settled.shift(); result; result = settled.shift())
          yield { type: "tool-result", stepIndex, toolResult: result };
        if (done) break;
        await new Promise<void>((resolve) => (wake = resolve));
      }
    }
    return await outcome;
  } catch (error) {
    if (error instanceof ToolFailure) {
      const output = error.cause instanceof Error && error.cause.name === "ToolOutputMismatch";
      throw run.runError(
        output ? "tool-output" : "tool-error",
        output
          ? `At step ${stepIndex + 1} (toolErrors: "throw"), ${describeError(error.cause)}`
          : `The tool '${error.toolCall.name}' threw at step ${stepIndex + 1} (toolErrors: "throw"): ${describeError(error.cause)}`,
        error.cause,
        error.toolCall,
      );
    }
    throw run.abortedAt(stepIndex);
  }
}
