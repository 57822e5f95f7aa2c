import type { FinishReason } from "../../core/output.js";

/** Converse `stopReason` → keelson finish reason. */
export function mapBedrockStopReason(stopReason: string | undefined): FinishReason {
  switch (stopReason) {
    case "end_turn":
    case "stop_sequence":
      return "stop";
    case "tool_use":
      return "tool-calls";
    case "max_tokens":
    case "model_context_window_exceeded":
      return "length";
    case "guardrail_intervened":
    case "content_filtered":
      return "content-filter";
    case "malformed_model_output":
    case "malformed_tool_use":
      return "error";
    default:
      return "other";
  }
}
