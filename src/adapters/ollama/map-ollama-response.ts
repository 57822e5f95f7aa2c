import type { ChatResponse, ToolCall as OllamaToolCall } from "ollama";
import type { ProviderOutput, ProviderToolCall } from "../../core/output.js";
import type { ChatModelChunk } from "../../core/stream/chat-model-chunk.js";
import type { Usage } from "../../core/usage.js";
import { mapOllamaFinishReason } from "./map-ollama-finish-reason.js";

/** A non-streamed `/api/chat` response. Tool calls have no ids: the base class gives them `call_…`. */
export function mapOllamaResponse(response: ChatResponse): ProviderOutput {
  const message = response.message;
  const toolCalls: ProviderToolCall[] = (message?.tool_calls ?? []).map(toToolCall);
  return {
    text: message?.content ?? "",
    reasoning: message?.thinking ?? "",
    toolCalls,
    finishReason: mapOllamaFinishReason(response.done_reason),
    usage: mapOllamaUsage(response),
    raw: response,
  };
}

/**
 * One NDJSON object of a streamed `/api/chat`: `thinking` and `content` are deltas, a tool call
 * arrives whole in one object, and the `done: true` object carries the counts and `done_reason`.
 * An array, not a generator: `yield*` of a sync generator inside the adapter's async one wrapped
 * every part in an async iterator, the largest per-chunk cost of an Ollama stream.
 */
export function mapOllamaStreamPart(part: ChatResponse): ChatModelChunk[] {
  const message = part.message;
  // Nearly every part is one piece of text: one array made whole (pushing into an empty array
  // allocates its room first, ~15k instructions of an Ollama stream of ~210 parts).
  if (!part.done && message?.content && !message.thinking && !message.tool_calls?.length) {
    return [{ type: "text-delta", text: message.content }];
  }
  const chunks: ChatModelChunk[] = [];
  if (message?.thinking) chunks.push({ type: "reasoning-delta", text: message.thinking });
  if (message?.content) chunks.push({ type: "text-delta", text: message.content });
  for (const call of message?.tool_calls ?? []) {
    const { name, args } = toToolCall(call);
    // `id` is left empty for the base class to fill, as in `_create`.
    chunks.push({
      type: "tool-call",
      toolCall: { type: "tool-call", id: "", name, args: args as Record<string, unknown> },
    });
  }
  if (part.done) {
    chunks.push({ type: "usage", usage: mapOllamaUsage(part) });
    chunks.push({ type: "finish", finishReason: mapOllamaFinishReason(part.done_reason) ?? "stop", raw: part });
  }
  return chunks;
}

/** `prompt_eval_count` (absent when the whole prompt was cached) and `eval_count` (thinking included). */
export function mapOllamaUsage(response: Partial<ChatResponse>): Partial<Usage> {
  const usage: Partial<Usage> = {};
  if (typeof response.prompt_eval_count === "number") usage.inputTokens = response.prompt_eval_count;
  if (typeof response.eval_count === "number") usage.outputTokens = response.eval_count;
  return usage;
}

function toToolCall(call: OllamaToolCall): ProviderToolCall {
  return { name: call.function?.name ?? "", args: call.function?.arguments };
}
