import type { ChatModelOutput } from "../output.js";
import type { ChatModelChunk } from "../stream/chat-model-chunk.js";

/** What a cache holds for one answer: the output, and the chunks when it was streamed. */
export interface CacheEntry {
  output: ChatModelOutput;
  chunks?: ChatModelChunk[];
  /** Per tool call, the arguments its schema validated (before transforms), checked again on a read. */
  toolCallInputs?: unknown[];
  /** The value the structured object was validated from (before transforms), validated again on a read. */
  structureInput?: unknown;
}

export function isCacheEntry(value: unknown): value is CacheEntry {
  return (
    value !== null &&
    typeof value === "object" &&
    typeof (value as CacheEntry).output === "object" &&
    (value as CacheEntry).output !== null &&
    typeof (value as CacheEntry).output.message === "object"
  );
}

/** A copy served on a hit: the caller may mutate it without changing what the next caller gets. */
export function outputFromCache(entry: CacheEntry): ChatModelOutput {
  const output = structuredClone(entry.output);
  output.meta.cacheHit = true;
  return output;
}

/** The chunks to replay on a streamed hit; an entry stored by `create` is replayed as whole pieces. */
export function chunksFromCache(entry: CacheEntry, output: ChatModelOutput): ChatModelChunk[] {
  if (entry.chunks) return structuredClone(entry.chunks);
  const chunks: ChatModelChunk[] = [];
  if (output.reasoning) chunks.push({ type: "reasoning-delta", text: output.reasoning });
  if (output.text) chunks.push({ type: "text-delta", text: output.text });
  for (const toolCall of output.toolCalls) chunks.push({ type: "tool-call", toolCall });
  chunks.push({ type: "finish", finishReason: output.finishReason, usage: output.usage });
  return chunks;
}
