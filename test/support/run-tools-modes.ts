import type { ResponseFormat, RunPart, RunResult, RunToolsOptions } from "../../src/index.js";
import { RunError, runTools, streamTools } from "../../src/index.js";

/** Every runTools behaviour runs through both entry points. */
export const runModes = ["runTools", "streamTools"] as const;
export type RunMode = (typeof runModes)[number];

/** Runs in the given mode; for streamTools, also returns the parts the caller saw. */
export async function runIn<F extends ResponseFormat | undefined = undefined>(
  mode: RunMode,
  options: RunToolsOptions<F>,
): Promise<{ run: RunResult; parts: RunPart[] }> {
  if (mode === "runTools") return { run: await runTools(options), parts: [] };
  const parts: RunPart[] = [];
  const stream = streamTools(options);
  for await (const part of stream) parts.push(part);
  return { run: await stream.final(), parts };
}

/** Runs in the given mode and returns the RunError it rejected with (fails the test if it answered). */
export async function runErrorIn(mode: RunMode, options: RunToolsOptions): Promise<RunError> {
  try {
    await runIn(mode, options);
  } catch (error) {
    if (RunError.isInstance(error)) return error;
    throw error;
  }
  throw new Error("The run answered; a RunError was expected.");
}
