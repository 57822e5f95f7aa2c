import type { ReasoningPart } from "../messages.js";
import type { ChatModelChunk } from "./chat-model-chunk.js";

/** Reasoning blocks as a live stream carries them: one `reasoning-delta` a block, with its signature or redacted data. */
export function reasoningDeltas(blocks: readonly ReasoningPart[]): ChatModelChunk[] {
  return blocks.map(({ text, signature, redactedData }) => ({
    type: "reasoning-delta",
    text,
    ...(signature ? { signature } : {}),
    ...(redactedData !== undefined ? { redactedData } : {}),
  }));
}
