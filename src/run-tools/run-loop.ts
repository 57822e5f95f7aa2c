import { ChatModelError, describeModel } from "../core/errors/chat-model-error.js";
import type { ChatModelInput } from "../core/input.js";
import type { Message, ToolCall } from "../core/messages.js";
import type { ChatModelLike } from "../core/model/chat-model-like.js";
import type { ChatModelOutput } from "../core/output.js";
import type { AnyTool, Tool } from "../core/tool.js";
import { abortError } from "../internal/abort.js";
import { generateToolCallId } from "../internal/generate-id.js";
import { checkApprovals, findTurn, heldOutput, heldTurn, type PendingApproval } from "./approvals.js";
import { describeError, type StepExecution } from "./execute-step.js";
import { applyStepSettings, type PreparedStep } from "./prepare-step.js";
import { planExecute, type Plan, type PlanRun } from "./plan-execute.js";
import { guardedListener } from "./run-event.js";
import { pickCallOptions, readRunOptions } from "./read-run-options.js";
import { budgetExceeded, checkRunBudget } from "./run-budget.js";
import { RunError, type RunErrorReason } from "./run-error.js";
import type { RunPart } from "./run-part.js";
import type { RunStep, ToolResult } from "./run-step.js";
import { runStepCalls, type StepCalls } from "./run-step-calls.js";
import type { RunResult, RunToolsOptions } from "./run-tools-options.js";
import { sumUsage } from "../core/usage.js";

/** What a run has completed so far, and how to stop it: for a stream closed early. */
export interface RunProgress {
  messages: Message[];
  steps: RunStep[];
  /** Aborts the run at once, even while a step is awaited (a generator's return() would wait for it). */
  abort?: () => void;
}

/**
 * The agent loop: ask, execute the requested tools, append the whole assistant message and one
 * tool message per call, ask again, until an answer. It uses the model's public API only. Streamed,
 * it yields the model's chunks and the tool results as they happen; else it yields nothing.
 */
export async function* runLoop(
  options: RunToolsOptions,
  streamed: boolean,
  progress: RunProgress = { messages: [], steps: [] },
): AsyncGenerator<RunPart, RunResult, undefined> {
  const settings = readRunOptions(options);
  const { model, toolChoice, responseFormat, authorize, onStep, prepareStep, signal: callerSignal } = options;
  const emit = guardedListener(options.onEvent);
  const callOptions = pickCallOptions(options);
  const budget = checkRunBudget(options.budget, model);
  const transcript = progress.messages;
  for (const message of options.messages) transcript.push(message);
  const { steps } = progress;
  const runId = options.runId ?? `run-${generateToolCallId().slice(5)}`;
  const held = heldTurn(transcript);
  const approvals = checkApprovals(options.approvals, held);
  // The assistant turns so far: the `n` of a new step's execution ids.
  let turns = 0;
  for (const message of transcript) if (message.role === "assistant") turns++;

  // The run's own signal: the caller's abort, a stream closed early, or a tool-error ending the run
  // reach every call and tool in flight; the caller's signal keeps no listener after the run.
  const controller = new AbortController();
  const onAbort = () => controller.abort(callerSignal?.reason);
  if (callerSignal?.aborted) onAbort();
  else callerSignal?.addEventListener("abort", onAbort, { once: true });
  const { signal } = controller;
  const aborted = new Promise<never>((_resolve, reject) =>
    signal.addEventListener("abort", () => reject(abortError(signal)), { once: true }),
  );
  aborted.catch(() => undefined);
  progress.abort = () => controller.abort(new DOMException("The run's stream was closed", "AbortError"));
  let ended = false;

  const runError = (reason: RunErrorReason, message: string, cause: unknown, toolCall?: ToolCall) =>
    new RunError(message, {
      reason,
      messages: transcript.slice(),
      steps: steps.slice(),
      cause,
      toolCall,
      providerId: model.providerId,
      modelId: model.modelId,
    });
  const abortedAt = (stepIndex: number) =>
    runError("aborted", `The run was aborted at step ${stepIndex + 1}.`, abortError(signal));
  const endRun = (
    output: ChatModelOutput,
    toolCalls: ToolCall[],
    pendingApprovals: PendingApproval[],
    plan?: Plan,
  ): RunResult => {
    ended = true;
    return {
      ...(plan === undefined ? {} : { plan }),
      status: pendingApprovals.length > 0 ? "awaiting-approval" : "done",
      runId,
      messages: transcript.slice(),
      output,
      steps: steps.slice(),
      text: output.text,
      object: output.object,
      toolCalls,
      pendingApprovals,
      usage: sumUsage(steps.map((each) => each.usage)),
    };
  };
  const stepCalls: StepCalls = {
    tools: settings.tools,
    authorize: authorize as StepExecution["authorize"],
    toolErrors: settings.toolErrors,
    concurrency: settings.concurrency,
    signal,
    aborted,
    approvals,
    emit: emit as StepExecution["emit"],
    runId,
    streamed,
    runError,
    abortedAt,
  };
  /** This run's runStepCalls (planExecute borrows it too). */
  const runCalls: PlanRun["runCalls"] = (calls, stepIndex, turn, indexes, messages) =>
    runStepCalls(stepCalls, calls, stepIndex, turn, indexes, messages);

  /** One model call of the run, streamed when the run is: its step-start, its chunks, its output. */
  async function* callModel(
    stepModel: ChatModelLike,
    input: ChatModelInput,
    stepIndex: number,
  ): AsyncGenerator<RunPart, ChatModelOutput, undefined> {
    emit?.({ type: "step-start", step: stepIndex });
    try {
      if (!streamed) return await stepModel.create(input);
      yield { type: "step-start", stepIndex };
      const stream = stepModel.createStream(input);
      for await (const chunk of stream) yield chunk;
      return await stream.final();
    } catch (error) {
      if (signal.aborted) throw abortedAt(stepIndex);
      // A call the model refused before any request (a TypeError: tools and options that do not fit) is the caller's to fix.
      if (error instanceof TypeError && !ChatModelError.isInstance(error)) throw error;
      throw runError(
        "model-error",
        `The model (${describeModel(stepModel)}) failed at step ${stepIndex + 1} of the run: ${describeError(error)}`,
        error,
      );
    }
  }

  try {
    // A waiting run resumed: its held calls run (or wait again) before any model call.
    const resumable = held?.calls.filter(({ call }) => typeof settings.tools.get(call.name)?.execute === "function");
    if (held && resumable && resumable.length > 0) {
      const calls = resumable.map(({ call }) => call);
      const turn = held.turn;
      const outcome = yield* runCalls(
        calls,
        turn,
        turn,
        resumable.map(({ index }) => index),
        transcript.slice(),
      );
      if (outcome.pending) {
        const message = findTurn(transcript, turn);
        return endRun(heldOutput(message, model), [], outcome.pending);
      }
      for (const result of outcome.results) transcript.push(result.message);
    }
    if (options.strategy === "plan-execute") {
      const planned = yield* planExecute({
        model,
        tools: settings.tools,
        transcript,
        steps,
        maxSteps: settings.maxSteps,
        replan: options.replan === true,
        responseFormat,
        callInput: {
          ...callOptions,
          ...(streamed ? { signal } : callerSignal === undefined ? {} : { signal: callerSignal }),
        },
        emit: emit as PlanRun["emit"],
        callModel,
        runCalls,
        nextTurn: () => turns++,
        fail: (reason, message) => runError(reason, message, undefined),
      });
      return endRun(planned.output, [], planned.waiting, planned.plan);
    }
    // The tools as defined (any shape given, read once): the same array every step, unless prepareStep changes it.
    const definedTools: readonly Tool[] = [...settings.tools.values()];
    for (let stepIndex = 0; ; stepIndex++) {
      if (signal.aborted) throw abortedAt(stepIndex);
      if (stepIndex === settings.maxSteps) {
        throw runError(
          "max-steps",
          `The model made ${settings.maxSteps} calls without answering (maxSteps: ${settings.maxSteps}). ` +
            "Raise maxSteps, or continue the run from error.messages.",
          undefined,
        );
      }
      const started = performance.now();
      let prepared: PreparedStep = {
        model,
        messages: transcript.slice(),
        tools: definedTools,
        toolChoice,
      };
      if (prepareStep) {
        prepared = applyStepSettings(
          await prepareStep({ step: stepIndex, messages: transcript.slice(), steps: steps.slice() }),
          prepared,
          settings.tools,
        );
      }
      const stepModel = prepared.model;
      const input: ChatModelInput = {
        ...callOptions,
        messages: prepared.messages,
        // The same array every step (unless prepareStep changed it): the model indexes a call's tools once per array.
        tools: prepared.tools as AnyTool[],
        // A streamed step stops with the run (a stream closed while a step is awaited). A call of
        // runTools takes the caller's own signal: it then costs no signal of its own when nothing
        // can abort the run.
        ...(streamed ? { signal } : callerSignal === undefined ? {} : { signal: callerSignal }),
        ...(prepared.toolChoice === undefined ? {} : { toolChoice: prepared.toolChoice }),
        ...(responseFormat === undefined ? {} : { responseFormat }),
      };
      const overspent = budget && (await budgetExceeded(budget, stepModel, input, steps));
      if (overspent) throw runError("budget", overspent, undefined);
      const output = yield* callModel(stepModel, input, stepIndex);

      const executable: ToolCall[] = [];
      const pending: ToolCall[] = [];
      for (const call of output.toolCalls) {
        if (typeof settings.tools.get(call.name)?.execute === "function") executable.push(call);
        else pending.push(call);
      }
      const turn = turns++;
      let toolResults: ToolResult[] = [];
      let waiting: PendingApproval[] = [];
      if (executable.length > 0) {
        const indexes = executable.map((call) => output.toolCalls.indexOf(call));
        const outcome = yield* runCalls(executable, stepIndex, turn, indexes, [...transcript, output.message]);
        if (outcome.pending) waiting = outcome.pending;
        else toolResults = outcome.results;
      }

      transcript.push(output.message);
      for (const result of toolResults) transcript.push(result.message);
      const step: RunStep = {
        stepIndex,
        output,
        toolResults,
        usage: output.usage,
        durationMs: performance.now() - started,
      };
      steps.push(step);
      emit?.({ type: "step-finish", step: stepIndex, runStep: step });
      if (streamed) yield { type: "step-finish", step };
      await onStep?.(step);
      if (waiting.length > 0) return endRun(output, [], waiting);
      if (output.toolCalls.length === 0 || pending.length > 0) return endRun(output, pending, []);
    }
  } finally {
    callerSignal?.removeEventListener("abort", onAbort);
    // A run that ends without its answer stops what it started (a sibling of a failed tool, a stream left early).
    if (!ended && !signal.aborted) controller.abort(new DOMException("The run ended", "AbortError"));
  }
}
