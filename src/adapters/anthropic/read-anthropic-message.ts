import type Anthropic from "@anthropic-ai/sdk";
import type { ReasoningPart } from "../../core/messages.js";
import type { FinishReason, ProviderOutput, ProviderToolCall } from "../../core/output.js";
import type { Usage } from "../../core/usage.js";
import type { ReplySource } from "../../core/errors/unreadable-reply.js";
import {
  optionalRecord,
  optionalRecords,
  optionalString,
  readingPart,
  requiredRecord,
  requiredString,
  tokenCount,
} from "../../core/reply-fields.js";

/**
 * A Messages API reply → ProviderOutput. Every `thinking` block (with its signature) and
 * `redacted_thinking` block is kept apart, in order, for Anthropic wants them all back unchanged on
 * the next turn of a tool loop. Server-side tool blocks stay in `raw` only.
 */
export function readAnthropicMessage(message: Anthropic.Message, modelId = "unknown model"): ProviderOutput {
  const source = { providerId: "anthropic", modelId };
  return readingPart(source, "message", () => readMessage(requiredRecord(message, "message", source), source));
}

function readMessage(message: Record<string, unknown>, source: ReplySource): ProviderOutput {
  let text = "";
  let reasoning = "";
  const reasoningParts: ReasoningPart[] = [];
  const toolCalls: ProviderToolCall[] = [];
  const blocks = optionalRecords(message.content, "content", source) ?? [];
  blocks.forEach((block, index) => {
    const at = (field: string) => `content[${index}].${field}`;
    switch (requiredString(block.type, at("type"), source)) {
      case "text":
        text += requiredString(block.text, at("text"), source);
        break;
      case "thinking": {
        const thinking = requiredString(block.thinking, at("thinking"), source);
        const signature = optionalString(block.signature, at("signature"), source);
        reasoning += thinking;
        reasoningParts.push({ type: "reasoning", text: thinking, ...(signature === undefined ? {} : { signature }) });
        break;
      }
      case "redacted_thinking":
        reasoningParts.push({
          type: "reasoning",
          text: "",
          redactedData: requiredString(block.data, at("data"), source),
        });
        break;
      case "tool_use":
        toolCalls.push({
          id: requiredString(block.id, at("id"), source),
          name: requiredString(block.name, at("name"), source),
          args: block.input ?? {},
        });
        break;
    }
  });
  const usage = optionalRecord(message.usage, "usage", source);
  return {
    text,
    reasoning,
    toolCalls,
    finishReason: mapAnthropicStopReason(optionalString(message.stop_reason, "stop_reason", source)),
    usage: readAnthropicUsage(usage as AnthropicUsageReport | undefined),
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
  const input = tokenCount(usage.input_tokens);
  const output = tokenCount(usage.output_tokens);
  const cacheRead = tokenCount(usage.cache_read_input_tokens);
  const cacheWrite = tokenCount(usage.cache_creation_input_tokens);
  if (input !== undefined) result.inputTokens = input + (cacheRead ?? 0) + (cacheWrite ?? 0);
  if (output !== undefined) result.outputTokens = output;
  if (cacheRead !== undefined) result.cachedInputTokens = cacheRead;
  if (cacheWrite !== undefined) result.cacheWriteInputTokens = cacheWrite;
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
