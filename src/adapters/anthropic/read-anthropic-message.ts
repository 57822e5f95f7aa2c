import type Anthropic from "@anthropic-ai/sdk";
import type { ReasoningPart } from "../../core/messages.js";
import type { FinishReason, ProviderOutput, ProviderToolCall } from "../../core/output.js";
import type { Usage } from "../../core/usage.js";

/**
 * A Messages API reply → ProviderOutput. Every `thinking` block (with its signature) and
 * `redacted_thinking` block is kept apart, in order, for Anthropic wants them all back unchanged on
 * the next turn of a tool loop. Server-side tool blocks stay in `raw` only.
 */
export function readAnthropicMessage(message: Anthropic.Message): ProviderOutput {
  let text = "";
  let reasoning = "";
  const reasoningParts: ReasoningPart[] = [];
  const toolCalls: ProviderToolCall[] = [];
  for (const block of message.content ?? []) {
    switch (block.type) {
      case "text":
        text += block.text;
        break;
      case "thinking":
        reasoning += block.thinking;
        reasoningParts.push({ type: "reasoning", text: block.thinking, signature: block.signature });
        break;
      case "redacted_thinking":
        reasoningParts.push({ type: "reasoning", text: "", redactedData: block.data });
        break;
      case "tool_use":
        toolCalls.push({ id: block.id, name: block.name, args: block.input });
        break;
    }
  }
  return {
    text,
    reasoning,
    toolCalls,
    finishReason: mapAnthropicStopReason(message.stop_reason),
    usage: readAnthropicUsage(message.usage),
    raw: message,
    ...(reasoningParts.length > 0 ? { reasoningParts } : {}),
  };
}

/** The token counts Anthropic reports (a reply's `usage`, a stream's `message_start` or `message_delta`). */
export interface AnthropicUsageReport {
  input_tokens?: number | null;
  output_tokens?: number | null;
  cache_creation_input_tokens?: number | null;
  cache_read_input_tokens?: number | null;
}

/**
 * Anthropic's usage in keelson's terms. Anthropic's `input_tokens` is only the input that was
 * neither read from nor written to the prompt cache; keelson's `inputTokens` is the whole prompt:
 * the uncached input plus the cache reads (`cachedInputTokens`) plus the cache writes
 * (`cacheWriteInputTokens`).
 */
export function readAnthropicUsage(usage: AnthropicUsageReport | null | undefined): Partial<Usage> {
  if (!usage) return {};
  const result: Partial<Usage> = {};
  const cacheRead = usage.cache_read_input_tokens ?? 0;
  const cacheWrite = usage.cache_creation_input_tokens ?? 0;
  if (typeof usage.input_tokens === "number") result.inputTokens = usage.input_tokens + cacheRead + cacheWrite;
  if (typeof usage.output_tokens === "number") result.outputTokens = usage.output_tokens;
  if (typeof usage.cache_read_input_tokens === "number") result.cachedInputTokens = usage.cache_read_input_tokens;
  if (typeof usage.cache_creation_input_tokens === "number")
    result.cacheWriteInputTokens = usage.cache_creation_input_tokens;
  return result;
}

/**
 * Anthropic's `stop_reason` as a finish reason: `refusal` (the safety classifiers stopped the reply)
 * is `content-filter`, a full context window is `length`, `pause_turn` (a server tool's long turn,
 * to be continued) is `other`.
 */
export function mapAnthropicStopReason(reason: string | null | undefined): FinishReason {
  switch (reason) {
    case "end_turn":
    case "stop_sequence":
      return "stop";
    case "tool_use":
      return "tool-calls";
    case "max_tokens":
    case "model_context_window_exceeded":
      return "length";
    case "refusal":
      return "content-filter";
    default:
      return "other";
  }
}
