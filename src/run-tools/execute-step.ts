import type { Message, ToolCall } from "../core/messages.js";
import type { Tool } from "../core/tool.js";
import { eitherSignal } from "../internal/abort.js";
import type { Approvals, PendingApproval } from "./approvals.js";
import type { RunEvent } from "./run-event.js";
import type { StepOutcome, ToolResult } from "./run-step.js";
import type { AuthorizeContext, Authorization } from "./run-tools-options.js";
import { checkOutput, describeError, resultMessage, toolMessage } from "./tool-output.js";

export { describeError } from "./tool-output.js";

/** What one step's executions share. */
export interface StepExecution {
  tools: ReadonlyMap<string, Tool>;
  authorize: ((call: ToolCall, context: AuthorizeContext) => Authorization | PromiseLike<Authorization>) | undefined;
  toolErrors: "send" | "throw";
  concurrency: number;
  signal: AbortSignal;
  /** Rejects with the AbortError when `signal` aborts (one per run, rather than a listener per step). */
  aborted: Promise<never>;
  stepIndex: number;
  /** The transcript so far, the step's assistant message last. */
  messages: readonly Message[];
  /** A person's decisions on the calls of a waiting run. */
  approvals: Approvals | undefined;
  /** Each call's execution id, in call order. */
  executionIds: readonly string[];
  emit: ((event: RunEvent) => void) | undefined;
  /** Told of each result as it settles (in completion order). */
  onResult?: ((result: ToolResult) => void) | undefined;
}

/** A tool that threw with `toolErrors: "throw"` (or whose result failed its `outputSchema`): it ends the run. */
export class ToolFailure {
  constructor(
    readonly toolCall: ToolCall,
    readonly cause: unknown,
  ) {}
}

/** A tool's `timeoutMs` passed: its signal was aborted. */
class ToolTimeout extends Error {
  constructor(timeoutMs: number) {
    super(`it timed out after ${timeoutMs} ms (its timeoutMs) and its signal was aborted`);
    this.name = "TimeoutError";
  }
}

type Verdict =
  | { kind: "run" }
  | { kind: "refuse"; reason: string }
  | { kind: "ask"; reason?: string }
  | { kind: "error"; error: unknown };

/**
 * Runs a step's calls: first each one's gate in call order (a person's decision, `authorize`, the
 * tool's `needsApproval`); when one asks for approval, none runs and the step's calls wait. Else
 * the calls run, at most `concurrency` at once, and their results come back in call order. Rejects
 * at once with the AbortError when the signal aborts (a tool that ignores its signal is left
 * behind, its result dropped), or with a ToolFailure under `toolErrors: "throw"`.
 */
export function executeStep(calls: readonly ToolCall[], execution: StepExecution): Promise<StepOutcome> {
  return Promise.race([gateAndExecute(calls, execution), execution.aborted]);
}

async function gateAndExecute(calls: readonly ToolCall[], execution: StepExecution): Promise<StepOutcome> {
  const verdicts: { verdict: Verdict; gateMs: number }[] = [];
  const pending: PendingApproval[] = [];
  for (let index = 0; index < calls.length; index++) {
    const call = calls[index]!;
    const executionId = execution.executionIds[index]!;
    execution.emit?.({ type: "tool-requested", step: execution.stepIndex, executionId, toolCall: call });
    // A call nothing checks (no authorize, no decision, no needsApproval) runs without a gate's await.
    if (!execution.authorize && !execution.approvals && execution.tools.get(call.name)?.needsApproval === undefined) {
      verdicts.push(noGate);
      continue;
    }
    const started = performance.now();
    const verdict = await gate(call, executionId, execution);
    verdicts.push({ verdict, gateMs: performance.now() - started });
    if (verdict.kind === "ask") {
      pending.push(verdict.reason === undefined ? { toolCall: call } : { toolCall: call, reason: verdict.reason });
      execution.emit?.({
        type: "tool-approval-requested",
        step: execution.stepIndex,
        executionId,
        toolCall: call,
        ...(verdict.reason === undefined ? {} : { reason: verdict.reason }),
      });
    }
  }
  if (pending.length > 0) return { pending };
  return { results: await executeAll(calls, verdicts, execution) };
}

async function gate(call: ToolCall, executionId: string, execution: StepExecution): Promise<Verdict> {
  const { approvals, signal } = execution;
  if (approvals !== undefined && Object.hasOwn(approvals, call.id)) {
    const decision = approvals[call.id];
    if (decision === true) return { kind: "run" };
    return {
      kind: "refuse",
      reason: typeof decision === "string" && decision.trim() !== "" ? decision : personRefusal,
    };
  }
  try {
    if (execution.authorize) {
      const verdict = await execution.authorize(call, {
        signal,
        stepIndex: execution.stepIndex,
        messages: execution.messages,
        executionId,
      });
      if (verdict === "ask") return { kind: "ask" };
      // Only `true` runs the tool: a hook that forgot to return refuses, it does not allow.
      if (verdict !== true)
        return {
          kind: "refuse",
          reason: typeof verdict === "string" && verdict.trim() !== "" ? verdict : defaultRefusal,
        };
    }
    const needsApproval = execution.tools.get(call.name)?.needsApproval;
    if (needsApproval === true) return { kind: "ask" };
    if (
      typeof needsApproval === "function" &&
      (await needsApproval(call.args, { signal, toolCall: call, executionId })) === true
    )
      return { kind: "ask" };
    return { kind: "run" };
  } catch (error) {
    if (signal.aborted) throw error;
    return { kind: "error", error };
  }
}

async function executeAll(
  calls: readonly ToolCall[],
  verdicts: readonly { verdict: Verdict; gateMs: number }[],
  execution: StepExecution,
): Promise<ToolResult[]> {
  const results = new Array<ToolResult>(calls.length);
  let next = 0;
  let failed = false;
  const work = async () => {
    while (next < calls.length && !failed && !execution.signal.aborted) {
      const index = next++;
      try {
        const { verdict, gateMs } = verdicts[index]!;
        const result = await executeCall(calls[index]!, verdict, gateMs, execution.executionIds[index]!, execution);
        results[index] = result;
        execution.onResult?.(result);
      } catch (error) {
        failed = true;
        throw error;
      }
    }
  };
  const workers = Math.min(execution.concurrency, calls.length);
  if (workers === 1) await work();
  else await Promise.all(Array.from({ length: workers }, work));
  return results;
}

async function executeCall(
  call: ToolCall,
  verdict: Verdict,
  gateMs: number,
  executionId: string,
  execution: StepExecution,
): Promise<ToolResult> {
  const { signal, emit } = execution;
  const step = execution.stepIndex;
  const started = performance.now();
  const settled = (fields: Omit<ToolResult, "toolCall" | "durationMs" | "executionId">): ToolResult => ({
    toolCall: call,
    executionId,
    ...fields,
    durationMs: gateMs + performance.now() - started,
  });
  if (verdict.kind === "refuse") {
    const content = `Not authorized: ${verdict.reason} The tool '${call.name}' was not run.`;
    emit?.({ type: "tool-refused", step, executionId, toolCall: call, reason: verdict.reason });
    return settled({ result: content, refused: verdict.reason, message: toolMessage(call, content) });
  }
  try {
    if (verdict.kind === "error") throw verdict.error;
    const tool = execution.tools.get(call.name);
    if (typeof tool?.execute !== "function") throw new Error(`no tool named '${call.name}' can run here`);
    const result = checkOutput(tool, await executeTool(tool, call, executionId, signal));
    const done = settled({ result, message: resultMessage(call, result) });
    emit?.({ type: "tool-finished", step, executionId, toolCall: call, durationMs: done.durationMs, result });
    return done;
  } catch (error) {
    if (signal.aborted) throw error;
    if (execution.toolErrors === "throw") throw new ToolFailure(call, error);
    const content =
      error instanceof Error && error.name === "ToolOutputMismatch"
        ? `Error: ${error.message}`
        : `Error: the tool '${call.name}' failed: ${describeError(error)}`;
    const failed = settled({ error, message: toolMessage(call, content) });
    emit?.({ type: "tool-finished", step, executionId, toolCall: call, durationMs: failed.durationMs, error });
    return failed;
  }
}

/** The tool's `execute`, under its `timeoutMs` when it has one (its signal aborts when the time passes). */
async function executeTool(tool: Tool, call: ToolCall, executionId: string, signal: AbortSignal): Promise<unknown> {
  const execute = tool.execute!.bind(tool);
  const { timeoutMs } = tool;
  if (timeoutMs === undefined) return await execute(call.args, { signal, toolCall: call, executionId });
  const timeout = new AbortController();
  let timer: ReturnType<typeof setTimeout> | undefined;
  const timedOut = new Promise<never>((_resolve, reject) => {
    timer = setTimeout(() => {
      const error = new ToolTimeout(timeoutMs);
      timeout.abort(error);
      reject(error);
    }, timeoutMs);
  });
  try {
    const callSignal = eitherSignal(signal, timeout.signal);
    return await Promise.race([execute(call.args, { signal: callSignal, toolCall: call, executionId }), timedOut]);
  } finally {
    clearTimeout(timer);
  }
}

const noGate = { verdict: { kind: "run" }, gateMs: 0 } as const;
const defaultRefusal = "the application refused this call.";
const personRefusal = "a person refused this call.";

export type { StepOutcome } from "./run-step.js";
