import type { FinishReason } from "../../core/output.js";

/**
 * Ollama's `done_reason`: `stop` (end of turn or a stop sequence, tool calls included — the base
 * class turns `stop` with calls into `tool-calls`), `length` (`num_predict` or the context filled),
 * `load`/`unload` (a request that only loaded or unloaded the model). Absent: left to the base class.
 */
export function mapOllamaFinishReason(doneReason: string | undefined | null): FinishReason | undefined {
  switch (doneReason) {
    case undefined:
    case null:
    case "":
      return undefined;
    case "stop":
      return "stop";
    case "length":
      return "length";
    default:
      return "other";
  }
}
