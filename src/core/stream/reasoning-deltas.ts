import type { ReasoningPart } from "../messages.js";
import type { ProviderOutput } from "../output.js";
import type { ChatModelChunk } from "./chat-model-chunk.js";

const noBlocks: readonly ReasoningPart[] = [];

/**
 * A reply's reasoning as blocks: the provider's own (`reasoningParts`), else its reasoning text and
 * signature as one. A signed block without text is still a block: the provider wants it back.
 */
export function reasoningBlocksOf(
  output: Pick<ProviderOutput, "reasoning" | "reasoningSignature" | "reasoningParts">,
): readonly ReasoningPart[] {
  if (output.reasoningParts) return output.reasoningParts;
  const { reasoning, reasoningSignature: signature } = output;
  return reasoning || signature
    ? [{ type: "reasoning", text: reasoning ?? "", ...(signature ? { signature } : {}) }]
    : noBlocks;
}

/** Reasoning blocks as a live stream carries them: one `reasoning-delta` a block, with its signature or redacted data. */
export function reasoningDeltas(blocks: readonly ReasoningPart[]): ChatModelChunk[] {
  return blocks.map(({ text, signature, redactedData, id }) => ({
    type: "reasoning-delta",
    text,
    ...(signature ? { signature } : {}),
    ...(id !== undefined ? { id } : {}),
    ...(redactedData !== undefined ? { redactedData } : {}),
  }));
}
