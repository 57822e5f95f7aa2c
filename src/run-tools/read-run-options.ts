import { toolFrom } from "../core/define-tool.js";
import type { Tool } from "../core/tool.js";
import type { RunCallOptions, RunToolsOptions } from "./run-tools-options.js";

/** A run's settings, checked and with their defaults. */
export interface RunSettings {
  tools: ReadonlyMap<string, Tool>;
  maxSteps: number;
  concurrency: number;
  toolErrors: "send" | "throw";
}

/** Checks a run's options before any call, with a TypeError that says what to pass instead. */
export function readRunOptions(options: RunToolsOptions): RunSettings {
  if (options === null || typeof options !== "object") {
    throw new TypeError("runTools expects { model, messages, tools, … }.");
  }
  const { model, messages, tools, runId } = options;
  const { maxSteps = 10, concurrency = 4, toolErrors = "send" } = options;
  if (model === null || typeof model !== "object" || typeof model.create !== "function") {
    throw new TypeError(
      "runTools needs a model: pass { model: a ChatModel (createChatModel, new OpenAIChatModel, …) }.",
    );
  }
  if (!Array.isArray(messages) || messages.length === 0) {
    throw new TypeError("runTools needs messages: a non-empty array, e.g. [{ role: 'user', content: '…' }].");
  }
  if (!Array.isArray(tools)) throw new TypeError("runTools needs tools: an array of tools (see defineTool).");
  const byName = new Map<string, Tool>();
  for (const tool of tools) {
    // Any shape defineTool takes (keelson's, `parameters`, OpenAI's function tool); anything else is its TypeError.
    const defined = toolFrom(tool);
    const { name } = defined;
    if (byName.has(name)) throw new TypeError(`Two tools are named '${name}': give each tool of a run its own name.`);
    byName.set(name, defined);
  }
  if (!(Number.isInteger(maxSteps) && maxSteps >= 1)) {
    throw new TypeError(`maxSteps must be a positive integer (model calls at most), got ${String(maxSteps)}.`);
  }
  if (!((Number.isInteger(concurrency) && concurrency >= 1) || concurrency === Infinity)) {
    throw new TypeError(`concurrency must be a positive integer or Infinity, got ${String(concurrency)}.`);
  }
  if (toolErrors !== "send" && toolErrors !== "throw") {
    throw new TypeError(`toolErrors must be "send" or "throw", got ${JSON.stringify(toolErrors)}.`);
  }
  const { strategy } = options;
  if (strategy !== undefined && strategy !== "ask-execute" && strategy !== "plan-execute") {
    throw new TypeError(`strategy must be "ask-execute" or "plan-execute", got ${JSON.stringify(strategy)}.`);
  }
  if (runId !== undefined && (typeof runId !== "string" || runId.trim() === "")) {
    throw new TypeError(`runId must be a non-empty string (a waiting run's run.runId), got ${JSON.stringify(runId)}.`);
  }
  for (const hook of ["authorize", "onStep", "prepareStep", "onEvent"] as const) {
    if (options[hook] !== undefined && typeof options[hook] !== "function") {
      throw new TypeError(`${hook} must be a function, got ${typeof options[hook]}.`);
    }
  }
  return { tools: byName, maxSteps, concurrency, toolErrors };
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
export function pickCallOptions(options: RunCallOptions): RunCallOptions {
  const picked: Record<string, unknown> = {};
  for (const name of callOptionNames) if (options[name] !== undefined) picked[name] = options[name];
  return picked as RunCallOptions;
}
