import type { ResponseFormat } from "../core/input.js";
import { runLoop } from "./run-loop.js";
import type { RunObject, RunResult, RunToolsOptions } from "./run-tools-options.js";

/**
 * Runs the agent loop: asks the model, executes every requested tool (`execute`, at most
 * `concurrency` at once, each call `authorize`d first), appends the whole assistant message and
 * one tool message per call, and asks again, until the model answers without tool calls (or calls
 * a tool without `execute`). What a tool returns, or throws, goes back to the model; a model
 * failure or an abort rejects with `RunError`, carrying the completed steps.
 *
 * @example
 * const run = await runTools({ model, messages, tools: [lookupIncident] });
 * console.log(run.text);
 */
export async function runTools<F extends ResponseFormat | undefined = undefined>(
  options: RunToolsOptions<F>,
): Promise<RunResult<RunObject<F>>> {
  const run = runLoop(options, false);
  for (;;) {
    const next = await run.next();
    if (next.done) return next.value as RunResult<RunObject<F>>;
  }
}
