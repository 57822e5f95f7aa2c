import type { ChatResponse } from "ollama";
import type { ReplySource } from "../../core/errors/unreadable-reply.js";
import { unreadableReply } from "../../core/errors/unreadable-reply.js";
import { isRecord, optionalRecord, optionalRecords, optionalString, tokenCount } from "../../core/reply-fields.js";
import type { ProviderOutput, ProviderToolCall } from "../../core/output.js";
import type { ChatModelChunk } from "../../core/stream/chat-model-chunk.js";
import type { Usage } from "../../core/usage.js";
import { mapOllamaFinishReason } from "./map-ollama-finish-reason.js";

/**
 * A non-streamed `/api/chat` response. Tool calls have no ids: the base class gives them `call_…`.
 * Read defensively: a field of the wrong shape is an `unreadableReply` ProviderError naming it.
 */
export function mapOllamaResponse(response: ChatResponse, source: ReplySource): ProviderOutput {
  if (!isRecord(response)) throw unreadableReply(source, "body", "an object", response);
  const message = readMessage(response, source);
  const toolCalls: ProviderToolCall[] = message.toolCalls.map((call) => toToolCall(call, source));
  return {
    text: message.content,
    reasoning: message.thinking,
    toolCalls,
    finishReason: mapOllamaFinishReason(optionalString(response.done_reason, "done_reason", source)),
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
export function mapOllamaStreamPart(part: ChatResponse, source: ReplySource): ChatModelChunk[] {
  if (!isRecord(part)) throw unreadableReply(source, "stream line", "an object", part);
  const read = readMessage(part, source);
  const chunks: ChatModelChunk[] = [];
  if (read.thinking) chunks.push({ type: "reasoning-delta", text: read.thinking });
  if (read.content) chunks.push({ type: "text-delta", text: read.content });
  for (const call of read.toolCalls) {
    const { name, args } = toToolCall(call, source);
    // `id` is left empty for the base class to fill, as in `_create`.
    chunks.push({
      type: "tool-call",
      toolCall: { type: "tool-call", id: "", name, args: args as Record<string, unknown> },
    });
  }
  if (part.done) {
    chunks.push({ type: "usage", usage: mapOllamaUsage(part) });
    const doneReason = optionalString(part.done_reason, "done_reason", source);
    chunks.push({ type: "finish", finishReason: mapOllamaFinishReason(doneReason) ?? "stop", raw: part });
  }
  return chunks;
}

/** `prompt_eval_count` (absent when the whole prompt was cached) and `eval_count` (thinking included). */
export function mapOllamaUsage(response: Partial<ChatResponse>): Partial<Usage> {
  const usage: Partial<Usage> = {};
  const input = tokenCount(response.prompt_eval_count);
  const output = tokenCount(response.eval_count);
  if (input !== undefined) usage.inputTokens = input;
  if (output !== undefined) usage.outputTokens = output;
  return usage;
}

interface ReadMessage {
  content: string;
  thinking: string;
  toolCalls: readonly { call: Record<string, unknown>; path: string }[];
}

function readMessage(response: Record<string, unknown>, source: ReplySource): ReadMessage {
  const message = optionalRecord(response.message, "message", source);
  const calls = optionalRecords(message?.tool_calls, "message.tool_calls", source) ?? [];
  return {
    content: optionalString(message?.content, "message.content", source) ?? "",
    thinking: optionalString(message?.thinking, "message.thinking", source) ?? "",
    toolCalls: calls.map((call, index) => ({ call, path: `message.tool_calls[${index}]` })),
  };
}

function toToolCall(
  { call, path }: { call: Record<string, unknown>; path: string },
  source: ReplySource,
): ProviderToolCall {
  const called = optionalRecord(call.function, `${path}.function`, source);
  if (!called) throw unreadableReply(source, `${path}.function`, "an object", call.function);
  const args: unknown = called.arguments;
  // Ollama sends an object; some servers a JSON string; a call with none takes no arguments.
  if (args !== undefined && args !== null && typeof args !== "string" && !isRecord(args))
    throw unreadableReply(source, `${path}.function.arguments`, "an object", args);
  return { name: optionalString(called.name, `${path}.function.name`, source) ?? "", args: args ?? undefined };
}
