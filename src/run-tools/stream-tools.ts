import type { ResponseFormat } from "../core/input.js";
import type { ToolCall } from "../core/messages.js";
import type { AnyTool } from "../core/tool.js";
import { runLoop, type RunProgress } from "./run-loop.js";
import { RunError } from "./run-error.js";
import type { RunPart } from "./run-part.js";
import { readRunOptions } from "./read-run-options.js";
import type { RunObject, RunResult, RunToolCall, RunToolsOptions } from "./run-tools-options.js";

/**
 * `runTools`, streamed: iterate it for the model's chunks and the tool results as they happen
 * (`RunPart`), and `final()` for the run's result. The run starts when iteration (or `final()`)
 * starts; a stream can be iterated once. Leaving the loop early aborts the run (its tools get the
 * signal) and `final()` rejects with `RunError` reason `aborted`.
 */
export function streamTools<
  F extends ResponseFormat | undefined = undefined,
  const Tools extends readonly AnyTool[] = readonly AnyTool[],
>(options: RunToolsOptions<F, Tools>): ToolRunStream<RunObject<F>, RunToolCall<Tools>> {
  const untyped = options as unknown as RunToolsOptions;
  readRunOptions(untyped);
  return new ToolRunStream<RunObject<F>, RunToolCall<Tools>>(untyped);
}

/** A streamed run: an async iterable of `RunPart`s, with `final()` for the `RunResult`. */
export class ToolRunStream<T = unknown, Call extends ToolCall<string, unknown> = ToolCall> implements AsyncIterable<
  RunPart<Call>
> {
  readonly #options: RunToolsOptions;
  #started = false;
  readonly #final: Promise<RunResult<T, Call>>;
  #resolve!: (result: RunResult<T, Call>) => void;
  #reject!: (error: unknown) => void;

  /** @internal Use `streamTools`. */
  constructor(options: RunToolsOptions) {
    this.#options = options;
    this.#final = new Promise((resolve, reject) => {
      this.#resolve = resolve;
      this.#reject = reject;
    });
    // Rejections reach whoever awaits final() or iterates; an unobserved final() is not an unhandled rejection.
    this.#final.catch(() => {});
  }

  [Symbol.asyncIterator](): AsyncIterator<RunPart<Call>> {
    if (this.#started) {
      throw new TypeError(
        "This run is already being read: a ToolRunStream can be iterated once. Use final() for the result.",
      );
    }
    this.#started = true;
    const progress: RunProgress = { messages: [], steps: [] };
    const run = runLoop(this.#options, true, progress);
    let settled = false;
    return {
      next: async () => {
        try {
          const next = await run.next();
          if (!next.done) return next as IteratorYieldResult<RunPart<Call>>;
          settled = true;
          this.#resolve(next.value as unknown as RunResult<T, Call>);
          return { done: true, value: undefined };
        } catch (error) {
          settled = true;
          this.#reject(error);
          throw error;
        }
      },
      return: async () => {
        if (!settled) progress.abort?.();
        await run.return(undefined as never);
        if (!settled) {
          settled = true;
          const { messages, steps } = progress;
          this.#reject(
            new RunError("The run's stream was closed before the run ended.", {
              reason: "aborted",
              messages: messages.slice(),
              steps: steps.slice(),
              cause: new DOMException("The consumer stopped reading the run", "AbortError"),
              providerId: this.#options.model.providerId,
              modelId: this.#options.model.modelId,
            }),
          );
        }
        return { done: true, value: undefined };
      },
    };
  }

  /** The run's result once it ends; runs it (reading the stream) if nobody iterates it. */
  async final(): Promise<RunResult<T, Call>> {
    if (!this.#started) {
      for await (const _part of this) {
        // drained for the result
      }
    }
    return this.#final;
  }
}
