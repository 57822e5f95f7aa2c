import type { Message, ToolCall, ToolMessage } from "../core/messages.js";
import type { Tool, ToolDefinition } from "../core/tool.js";
import type { ToolResult } from "./run-step.js";
import type { RunToolsOptions } from "./run-tools-options.js";

/** What one step's executions share. */
export interface StepExecution {
  tools: ReadonlyMap<string, Tool | ToolDefinition>;
  authorize: RunToolsOptions["authorize"];
  toolErrors: "send" | "throw";
  concurrency: number;
  signal: AbortSignal;
  /** Rejects with the AbortError when `signal` aborts (one per run, rather than a listener per step). */
  aborted: Promise<never>;
  stepIndex: number;
  /** The transcript so far, the step's assistant message last. */
  messages: readonly Message[];
  /** Told of each result as it settles (in completion order). */
  onResult?: ((result: ToolResult) => void) | undefined;
}

/** A tool that threw with `toolErrors: "throw"`: it ends the run. */
export class ToolFailure {
  constructor(
    readonly toolCall: ToolCall,
    readonly cause: unknown,
  ) {}
}

/**
 * Runs a step's calls, at most `concurrency` at once, and returns their results in call order.
 * Rejects at once with the AbortError when the signal aborts (a tool that ignores its signal is
 * left behind, its result dropped), or with a ToolFailure when a tool throws and `toolErrors` is "throw".
 */
export function executeStep(calls: readonly ToolCall[], execution: StepExecution): Promise<ToolResult[]> {
  return Promise.race([executeAll(calls, execution), execution.aborted]);
}

async function executeAll(calls: readonly ToolCall[], execution: StepExecution): Promise<ToolResult[]> {
  const results = new Array<ToolResult>(calls.length);
  let next = 0;
  let failed = false;
  const work = async () => {
    while (next < calls.length && !failed && !execution.signal.aborted) {
      const index = next++;
      try {
        const result = await executeCall(calls[index]!, execution);
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

async function executeCall(call: ToolCall, execution: StepExecution): Promise<ToolResult> {
  const { signal } = execution;
  const started = performance.now();
  const settled = (fields: Omit<ToolResult, "toolCall" | "durationMs">): ToolResult => ({
    toolCall: call,
    ...fields,
    durationMs: performance.now() - started,
  });
  try {
    if (execution.authorize) {
      const verdict = await execution.authorize(call, {
        signal,
        stepIndex: execution.stepIndex,
        messages: execution.messages,
      });
      // Only `true` runs the tool: a hook that forgot to return refuses, it does not allow.
      if (verdict !== true) {
        const refused = typeof verdict === "string" && verdict.trim() !== "" ? verdict : defaultRefusal;
        const content = `Not authorized: ${refused} The tool '${call.name}' was not run.`;
        return settled({ result: content, refused, message: toolMessage(call, content) });
      }
    }
    const execute = execution.tools.get(call.name)?.execute;
    if (!execute) throw new Error(`no tool named '${call.name}' can run here`);
    const result: unknown = await execute(call.args, { signal, toolCall: call });
    return settled({ result, message: toolMessage(call, toContent(result, call)) });
  } catch (error) {
    if (signal.aborted) throw error;
    if (execution.toolErrors === "throw") throw new ToolFailure(call, error);
    const content = `Error: the tool '${call.name}' failed: ${describeError(error)}`;
    return settled({ error, message: toolMessage(call, content) });
  }
}

const defaultRefusal = "the application refused this call.";

function toolMessage(call: ToolCall, content: string): ToolMessage {
  return { role: "tool", toolCallId: call.id, toolName: call.name, content };
}

/** A string as is, anything else as JSON (`undefined` as `null`, which every provider takes). */
function toContent(result: unknown, call: ToolCall): string {
  if (typeof result === "string") return result;
  let json: string | undefined;
  try {
    json = JSON.stringify(result === undefined ? null : result);
  } catch (error) {
    throw new TypeError(`the result of '${call.name}' cannot be sent as JSON (${describeError(error)}).`, {
      cause: error,
    });
  }
  // A function or a symbol: JSON has no value for it.
  if (json === undefined)
    throw new TypeError(`the result of '${call.name}' cannot be sent as JSON (${typeof result}).`);
  return json;
}

/** An error's message, for a tool message or a RunError: never throws, whatever was thrown. */
export function describeError(error: unknown): string {
  try {
    if (error instanceof Error) return error.message || error.name;
    return typeof error === "string" ? error : String(error);
  } catch {
    return "an error that cannot be shown as text";
  }
}
