import type { ToolCall } from "../messages.js";
import type { ChatModelChunk } from "../stream/chat-model-chunk.js";
import type { CacheEntry } from "./cache-entry.js";

/**
 * The entry with its tool calls replaced, by id, wherever it hands them out: the output's list, its
 * message and the `tool-call` chunks a stream replays.
 */
export function entryWithToolCalls(entry: CacheEntry, toolCalls: ToolCall[]): CacheEntry {
  const byId = new Map(toolCalls.map((toolCall) => [toolCall.id, toolCall]));
  const { output, chunks } = entry;
  const { message } = output;
  const content =
    typeof message.content === "string" ? message.content : message.content.map((part) => (part.type === "tool-call" ? (byId.get(part.id) ?? part) : part));
  const replaced: CacheEntry = { ...entry, output: { ...output, toolCalls, message: { ...message, content } } };
  if (chunks) replaced.chunks = chunks.map((chunk) => (chunk.type === "tool-call" ? withToolCall(chunk, byId.get(chunk.toolCall.id)) : chunk));
  return replaced;
}

function withToolCall(chunk: ChatModelChunk & { type: "tool-call" }, toolCall: ToolCall | undefined): ChatModelChunk {
  return toolCall ? { type: "tool-call", toolCall } : chunk;
}
