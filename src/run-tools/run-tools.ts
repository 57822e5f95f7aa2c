import type { ResponseFormat } from "../core/input.js";
import type { AnyTool } from "../core/tool.js";
import { runLoop } from "./run-loop.js";
import type { RunObject, RunResult, RunToolCall, RunToolsOptions } from "./run-tools-options.js";

/**
 * Runs the agent loop: asks the model, executes every requested tool (`execute`, at most
 * `concurrency` at once, each call `authorize`d first), appends the whole assistant message and
 * one tool message per call, and asks again, until the model answers without tool calls (or calls
 * a tool without `execute`). What a tool returns, or throws, goes back to the model; a model
 * failure or an abort rejects with `RunError`, carrying the completed steps. A call that needs a
 * person's approval ends the run with `status: "awaiting-approval"`: run it again with
 * `messages: run.messages` and `approvals` to continue.
 *
 * @example
 * const run = await runTools({ model, messages, tools: [lookupIncident] });
 * console.log(run.text);
 */
export async function runTools<
  F extends ResponseFormat | undefined = undefined,
  const Tools extends readonly AnyTool[] = readonly AnyTool[],
>(options: RunToolsOptions<F, Tools>): Promise<RunResult<RunObject<F>, RunToolCall<Tools>>> {
  const run = runLoop(options as unknown as RunToolsOptions, false);
  for (;;) {
    const next = await run.next();
    if (next.done) return next.value as unknown as RunResult<RunObject<F>, RunToolCall<Tools>>;
  }
}
