import type { ToolCall } from "../messages.js";
import type { ChatModelChunk } from "../stream/chat-model-chunk.js";
import type { CacheEntry } from "./cache-entry.js";

/**
 * The entry with its tool calls replaced wherever it hands them out: the output's list, its message
 * and the `tool-call` chunks a stream replays. A call is found by its id and, as a provider may give
 * two calls one id, by its place among the calls with that id.
 */
export function entryWithToolCalls(entry: CacheEntry, toolCalls: ToolCall[]): CacheEntry {
  const { output, chunks } = entry;
  const { message } = output;
  const inMessage = replacer(toolCalls);
  const content =
    typeof message.content === "string"
      ? message.content
      : message.content.map((part) => (part.type === "tool-call" ? inMessage(part) : part));
  const replaced: CacheEntry = { ...entry, output: { ...output, toolCalls, message: { ...message, content } } };
  if (chunks) {
    const inChunks = replacer(toolCalls);
    replaced.chunks = chunks.map((chunk) =>
      chunk.type === "tool-call" ? withToolCall(chunk, inChunks(chunk.toolCall)) : chunk,
    );
  }
  return replaced;
}

/** Hands out, for each stored call met in order, the replacement with its id and place among that id's calls. */
function replacer(toolCalls: readonly ToolCall[]): (stored: ToolCall) => ToolCall {
  const byId = new Map<string, ToolCall[]>();
  for (const toolCall of toolCalls) {
    const same = byId.get(toolCall.id);
    if (same) same.push(toolCall);
    else byId.set(toolCall.id, [toolCall]);
  }
  const seen = new Map<string, number>();
  return (stored) => {
    const same = byId.get(stored.id);
    if (!same) return stored;
    const place = seen.get(stored.id) ?? 0;
    seen.set(stored.id, place + 1);
    return same[Math.min(place, same.length - 1)]!;
  };
}

function withToolCall(chunk: ChatModelChunk & { type: "tool-call" }, toolCall: ToolCall): ChatModelChunk {
  return { type: "tool-call", toolCall };
}
