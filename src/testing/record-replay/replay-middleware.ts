import type { ChatModelMiddleware, MiddlewareContext } from "../../core/middleware/chat-model-middleware.js";
import { ProviderError } from "../../core/errors/provider-error.js";
import type { ProviderInput } from "../../core/input.js";
import type { ProviderOutput } from "../../core/output.js";
import type { ChatModelChunk } from "../../core/stream/chat-model-chunk.js";
import { StreamAssembler } from "../../core/stream/stream-assembler.js";
import { reasoningBlocksOf, reasoningDeltas } from "../../core/stream/reasoning-deltas.js";
import type { CassetteInteraction } from "./cassette.js";
import { redactSecrets } from "./cassette.js";
import { canonicalInput, lineDiff, sharedLines } from "./input-diff.js";

/** Where the recorded exchanges came from, for an input the cassette has not seen. */
export interface ReplaySource {
  /** The cassette's path, or "the cassette". */
  readonly name: string;
  /** The extra secrets the cassette was recorded with. */
  readonly secrets: readonly string[];
}

/**
 * Replay as middleware: each request is answered from the recorded exchanges, in the provider's
 * place (nothing is sent on). An input must match a recorded one exactly (recorded exchanges are used
 * in order, the last one again once all are used); one the cassette has not seen fails loudly with
 * a diff against the nearest recorded input.
 */
export function replayMiddleware(
  interactions: readonly CassetteInteraction[],
  source: ReplaySource,
): ChatModelMiddleware {
  const recorded = interactions.map((interaction) => ({
    canonical: canonicalInput(interaction.input),
    interaction,
    used: false,
  }));
  const match = (input: ProviderInput): CassetteInteraction => {
    const { signal: _signal, ...rest } = input;
    // Scrubbed as the recording was: an input with key-shaped text matches its recording.
    const canonical = canonicalInput(redactSecrets(rest, [...source.secrets]));
    const matches = recorded.filter((entry) => entry.canonical === canonical);
    const entry = matches.find((candidate) => !candidate.used) ?? matches.at(-1);
    if (entry) {
      entry.used = true;
      return entry.interaction;
    }
    const nearest = recorded.reduce<{ canonical: string; score: number } | undefined>((best, candidate) => {
      const score = sharedLines(candidate.canonical, canonical);
      return !best || score > best.score ? { canonical: candidate.canonical, score } : best;
    }, undefined);
    throw new Error(
      `ReplayChatModel: ${source.name} has no recording of this provider input (${recorded.length} recorded). ` +
        (nearest
          ? `Diff against the nearest recorded input (- recorded, + actual):\n${lineDiff(nearest.canonical, canonical)}`
          : "The cassette is empty.") +
        "\nRecord the cassette again with RecordingChatModel if the agent's requests changed on purpose.",
    );
  };
  return {
    name: "replay",
    async wrapCreate({ input, context }): Promise<ProviderOutput> {
      const { output, chunks, error } = match(input);
      if (output) return output;
      if (chunks && !error) return outputFromChunks(chunks);
      throw replayedError(error, context);
    },
    async *wrapStream({ input, context }): AsyncIterable<ChatModelChunk> {
      const { output, chunks, error } = match(input);
      for (const chunk of chunks ?? (output ? chunksFromOutput(output) : [])) {
        context.signal.throwIfAborted();
        yield chunk;
      }
      if (error) throw replayedError(error, context);
    },
  };
}

function replayedError(error: CassetteInteraction["error"], model: MiddlewareContext): Error {
  if (!error) return new Error("ReplayChatModel: the recorded exchange has no answer.");
  return new ProviderError(error.message, {
    statusCode: error.statusCode,
    code: error.code,
    reason: error.reason,
    isRetryable: error.isRetryable,
    rejectedParameter: error.rejectedParameter,
    providerId: model.providerId,
    modelId: model.modelId,
  });
}

function chunksFromOutput(output: ProviderOutput): ChatModelChunk[] {
  // The provider's own reasoning blocks, each with its signature or redacted data, as a stream carries them.
  const chunks: ChatModelChunk[] = reasoningDeltas(reasoningBlocksOf(output));
  if (output.text) chunks.push({ type: "text-delta", text: output.text });
  (output.toolCalls ?? []).forEach((call, index) => {
    const argsDelta = typeof call.args === "string" ? call.args : JSON.stringify(call.args);
    chunks.push({ type: "tool-call-delta", index, name: call.name, argsDelta, ...(call.id ? { id: call.id } : {}) });
  });
  chunks.push({
    type: "finish",
    finishReason: output.finishReason ?? "stop",
    ...(output.usage ? { usage: output.usage } : {}),
    ...(output.raw !== undefined ? { raw: output.raw } : {}),
  });
  return chunks;
}

function outputFromChunks(chunks: ChatModelChunk[]): ProviderOutput {
  const assembler = new StreamAssembler();
  for (const chunk of chunks) assembler.add(chunk);
  return assembler.output();
}
