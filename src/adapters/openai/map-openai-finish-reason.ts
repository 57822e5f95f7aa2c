import type { FinishReason } from "../../core/output.js";

/**
 * An OpenAI `finish_reason` in keelson's terms. `function_call` is the legacy name of `tool_calls`;
 * anything unknown (a gateway's own value) is `other`, and a missing one is left undefined.
 */
export function mapOpenAIFinishReason(finishReason: string | null | undefined): FinishReason | undefined {
  switch (finishReason) {
    case "stop":
      return "stop";
    case "length":
      return "length";
    case "tool_calls":
    case "function_call":
      return "tool-calls";
    case "content_filter":
      return "content-filter";
    case null:
    case undefined:
      return undefined;
    default:
      return "other";
  }
}
