import type { ChatModelOutput } from "../output.js";
import type { ChatModelChunk } from "../stream/chat-model-chunk.js";
import { reasoningDeltas } from "../stream/reasoning-deltas.js";

/** What a cache holds for one answer: the output, and the chunks when it was streamed. */
export interface CacheEntry {
  output: ChatModelOutput;
  chunks?: ChatModelChunk[];
  /** Per tool call, the arguments its schema validated (before transforms), checked again on a read. */
  toolCallInputs?: unknown[];
  /** The value the structured object was validated from (before transforms), validated again on a read. */
  structureInput?: unknown;
}

/** A copy served on a hit: the caller may mutate it without changing what the next caller gets. */
export function outputFromCache(entry: CacheEntry): ChatModelOutput {
  const output = structuredClone(entry.output);
  output.meta.cacheHit = true;
  return output;
}

/**
 * The chunks to replay on a streamed hit; an entry stored by `create` is replayed as whole pieces,
 * copies of the output's (what the consumer changes in a chunk is not in its `final()`).
 */
export function chunksFromCache(entry: CacheEntry, output: ChatModelOutput): ChatModelChunk[] {
  if (entry.chunks) return structuredClone(entry.chunks);
  const chunks: ChatModelChunk[] = reasoningChunks(output);
  if (output.text) chunks.push({ type: "text-delta", text: output.text });
  for (const toolCall of structuredClone(output.toolCalls)) chunks.push({ type: "tool-call", toolCall });
  chunks.push({ type: "finish", finishReason: output.finishReason, usage: { ...output.usage } });
  return chunks;
}

/** The reply's reasoning as a live stream carries it: its message's blocks, else the reasoning as one. */
function reasoningChunks(output: ChatModelOutput): ChatModelChunk[] {
  const { content } = output.message;
  const blocks = Array.isArray(content) ? content.filter((part) => part.type === "reasoning") : [];
  if (blocks.length > 0) return reasoningDeltas(blocks);
  return output.reasoning ? [{ type: "reasoning-delta", text: output.reasoning }] : [];
}
