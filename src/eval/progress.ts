import { Presets, SingleBar } from "cli-progress";
import type { EvaluateOptions } from "./evaluate.js";

type ProgressEvent = Parameters<NonNullable<EvaluateOptions["onResult"]>>[0];

/** A progress bar on a terminal (cli-progress), one plain line per run otherwise (CI logs). */
export function startProgress(stream: NodeJS.WritableStream & { isTTY?: boolean }): {
  update: (event: ProgressEvent) => void;
  stop: () => void;
} {
  if (stream.isTTY) {
    const bar = new SingleBar(
      { stream, format: "{bar} {value}/{total} runs | {label}", hideCursor: true, clearOnComplete: false },
      Presets.shades_classic,
    );
    let started = false;
    return {
      update(event) {
        const label = `${event.model.providerId}:${event.model.modelId} ${event.profile} ${event.result.case}`;
        if (!started) {
          bar.start(event.total, 0, { label });
          started = true;
        }
        bar.update(event.done, { label });
      },
      stop: () => {
        if (started) bar.stop();
      },
    };
  }
  return {
    update(event) {
      const { result } = event;
      const status = result.ok ? "ok" : `FAIL ${result.failure?.kind ?? "error"}`;
      stream.write(
        `[${event.done}/${event.total}] ${event.model.providerId}:${event.model.modelId} ${event.profile} ${result.case}#${result.run} ${status} ${result.latencyMs.toFixed(1)} ms\n`,
      );
    },
    stop: () => {},
  };
}
