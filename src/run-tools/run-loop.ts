import { ChatModelError, describeModel } from "../core/errors/chat-model-error.js";
import type { ChatModelInput } from "../core/input.js";
import type { Message, ToolCall } from "../core/messages.js";
import type { ChatModelOutput } from "../core/output.js";
import type { Tool, ToolDefinition } from "../core/tool.js";
import { abortError } from "../internal/abort.js";
import { describeError, executeStep, ToolFailure } from "./execute-step.js";
import { readRunOptions } from "./read-run-options.js";
import { budgetExceeded, checkRunBudget } from "./run-budget.js";
import { RunError, type RunErrorReason } from "./run-error.js";
import type { RunPart } from "./run-part.js";
import type { RunStep, ToolResult } from "./run-step.js";
import type { RunCallOptions, RunResult, RunToolsOptions } from "./run-tools-options.js";
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
  const { model, tools, toolChoice, responseFormat, authorize, onStep, signal: callerSignal } = options;
  const callOptions = pickCallOptions(options);
  const budget = checkRunBudget(options.budget, model);
  const transcript = progress.messages;
  for (const message of options.messages) transcript.push(message);
  const { steps } = progress;

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

  try {
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
      const input: ChatModelInput = {
        ...callOptions,
        messages: transcript.slice(),
        // The same array every step: the model indexes a call's tools once per array.
        tools: tools as (Tool | ToolDefinition)[],
        // A streamed step stops with the run (a stream closed while a step is awaited). A call of
        // runTools takes the caller's own signal: it then costs no signal of its own when nothing
        // can abort the run.
        ...(streamed ? { signal } : callerSignal === undefined ? {} : { signal: callerSignal }),
        ...(toolChoice === undefined ? {} : { toolChoice }),
        ...(responseFormat === undefined ? {} : { responseFormat }),
      };
      const overspent = budget && (await budgetExceeded(budget, model, input, steps));
      if (overspent) throw runError("budget", overspent, undefined);
      let output: ChatModelOutput;
      try {
        if (streamed) {
          yield { type: "step-start", stepIndex };
          const stream = model.createStream(input);
          for await (const chunk of stream) yield chunk;
          output = await stream.final();
        } else {
          output = await model.create(input);
        }
      } catch (error) {
        if (signal.aborted) throw abortedAt(stepIndex);
        // A call the model refused before any request (a TypeError: tools and options that do not fit) is the caller's to fix.
        if (error instanceof TypeError && !ChatModelError.isInstance(error)) throw error;
        throw runError(
          "model-error",
          `The model (${describeModel(model)}) failed at step ${stepIndex + 1} of the run: ${describeError(error)}`,
          error,
        );
      }

      const executable: ToolCall[] = [];
      const pending: ToolCall[] = [];
      for (const call of output.toolCalls) {
        if (typeof settings.tools.get(call.name)?.execute === "function") executable.push(call);
        else pending.push(call);
      }
      let toolResults: ToolResult[] = [];
      if (executable.length > 0) {
        const settled: ToolResult[] = [];
        let wake: (() => void) | undefined;
        const execution = executeStep(executable, {
          tools: settings.tools,
          authorize,
          toolErrors: settings.toolErrors,
          concurrency: settings.concurrency,
          signal,
          aborted,
          stepIndex,
          messages: [...transcript, output.message],
          onResult: streamed
            ? (result) => {
                settled.push(result);
                wake?.();
              }
            : undefined,
        });
        try {
          if (streamed) {
            let done = false;
            const finish = () => {
              done = true;
              wake?.();
            };
            execution.then(finish, finish);
            for (;;) {
              for (let result = settled.shift(); result; result = settled.shift())
                yield { type: "tool-result", stepIndex, toolResult: result };
              if (done) break;
              await new Promise<void>((resolve) => (wake = resolve));
            }
          }
          toolResults = await execution;
        } catch (error) {
          if (error instanceof ToolFailure) {
            throw runError(
              "tool-error",
              `The tool '${error.toolCall.name}' threw at step ${stepIndex + 1} (toolErrors: "throw"): ${describeError(error.cause)}`,
              error.cause,
              error.toolCall,
            );
          }
          throw abortedAt(stepIndex);
        }
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
      if (streamed) yield { type: "step-finish", step };
      await onStep?.(step);
      if (output.toolCalls.length === 0 || pending.length > 0) {
        ended = true;
        return {
          messages: transcript.slice(),
          output,
          steps: steps.slice(),
          text: output.text,
          object: output.object,
          toolCalls: pending,
          usage: sumUsage(steps.map((each) => each.usage)),
        };
      }
    }
  } finally {
    callerSignal?.removeEventListener("abort", onAbort);
    // A run that ends without its answer stops what it started (a sibling of a failed tool, a stream left early).
    if (!ended && !signal.aborted) controller.abort(new DOMException("The run ended", "AbortError"));
  }
}

const callOptionNames: readonly (keyof RunCallOptions)[] = [
  "parameters",
  "maxRetries",
  "timeout",
  "cache",
  "providerOptions",
  "parallelToolCalls",
  "fallbackTool",
];

/** The model call options a run passes to every step, the ones given only. */
function pickCallOptions(options: RunCallOptions): RunCallOptions {
  const picked: Record<string, unknown> = {};
  for (const name of callOptionNames) if (options[name] !== undefined) picked[name] = options[name];
  return picked as RunCallOptions;
}
