import { ChatModel } from "../../core/model/chat-model.js";
import type { ChatModelOptions } from "../../core/model/chat-model-options.js";
import { ProviderError } from "../../core/errors/provider-error.js";
import type { ProviderInput, RunContext } from "../../core/input.js";
import type { ProviderOutput } from "../../core/output.js";
import type { ChatModelChunk } from "../../core/stream/chat-model-chunk.js";
import { StreamAssembler } from "../../core/stream/stream-assembler.js";
import { optionsOf } from "./cassette-settings.js";
import type { Cassette, CassetteInteraction } from "./cassette.js";
import { readCassette, redactSecrets } from "./cassette.js";
import { canonicalInput, lineDiff, sharedLines } from "./input-diff.js";
import { reasoningBlocksOf, reasoningDeltas } from "../../core/stream/reasoning-deltas.js";

export interface ReplayChatModelOptions extends ChatModelOptions {
  /** The extra secrets the cassette was recorded with, so inputs holding them match their scrubbed recording. @default [] */
  secrets?: string[];
}

/** Replays made so far in this process. */
let replays = 0;

/**
 * Plays a cassette recorded by `RecordingChatModel` back, deterministically and offline. Each
 * provider input must match a recorded one exactly (recorded exchanges are used in order); an input
 * the cassette has not seen fails loudly with a diff against the nearest recorded input.
 */
export class ReplayChatModel extends ChatModel {
  readonly providerId: string;
  private readonly interactions: { canonical: string; interaction: CassetteInteraction; used: boolean }[];
  private readonly source: string;
  private readonly secrets: string[];
  /** Each replay is its own endpoint: it starts from what its recording started from (nothing learned). */
  private readonly ownScope = `replay-${++replays}`;

  /**
   * @param cassette A cassette file path, or a cassette already read.
   * @param options The common options; the profile comes from the cassette. Retry delays default to 0,
   *   so that a recorded retryable error replays without waiting.
   */
  constructor(cassette: string | Cassette, options: ReplayChatModelOptions = {}) {
    const loaded = typeof cassette === "string" ? readCassette(cassette) : cassette;
    const { secrets = [], ...rest } = options;
    const retry = {
      initialDelayMs: 0,
      maxDelayMs: 0,
      ...(loaded.settings ? { maxRetries: loaded.settings.maxRetries } : {}),
    };
    // The recorded model's settings, so the replay sends the same inputs and accepts the same replies.
    super(loaded.modelId, { ...optionsOf(loaded.settings), retry, ...rest }, loaded.profile);
    this.providerId = loaded.providerId;
    this.secrets = secrets;
    this.source = typeof cassette === "string" ? cassette : "the cassette";
    this.interactions = loaded.interactions.map((interaction) => ({
      canonical: canonicalInput(interaction.input),
      interaction,
      used: false,
    }));
  }

  protected override get capabilityScope(): string {
    return this.ownScope;
  }

  protected override async _create(input: ProviderInput): Promise<ProviderOutput> {
    const { output, chunks, error } = this.match(input);
    if (output) return output;
    if (chunks && !error) return outputFromChunks(chunks);
    throw replayedError(error, this);
  }

  protected override async *_createStream(input: ProviderInput, context: RunContext): AsyncIterable<ChatModelChunk> {
    const { output, chunks, error } = this.match(input);
    for (const chunk of chunks ?? (output ? chunksFromOutput(output) : [])) {
      context.signal.throwIfAborted();
      yield chunk;
    }
    if (error) throw replayedError(error, this);
  }

  private match(input: ProviderInput): CassetteInteraction {
    const { signal: _signal, ...rest } = input;
    // Scrubbed as the recording was: an input with key-shaped text matches its recording.
    const canonical = canonicalInput(redactSecrets(rest, this.secrets));
    const matches = this.interactions.filter((entry) => entry.canonical === canonical);
    const entry = matches.find((candidate) => !candidate.used) ?? matches.at(-1);
    if (entry) {
      entry.used = true;
      return entry.interaction;
    }
    const nearest = this.interactions.reduce<{ canonical: string; score: number } | undefined>((best, candidate) => {
      const score = sharedLines(candidate.canonical, canonical);
      return !best || score > best.score ? { canonical: candidate.canonical, score } : best;
    }, undefined);
    throw new Error(
      `ReplayChatModel: ${this.source} has no recording of this provider input (${this.interactions.length} recorded). ` +
        (nearest
          ? `Diff against the nearest recorded input (- recorded, + actual):\n${lineDiff(nearest.canonical, canonical)}`
          : "The cassette is empty.") +
        "\nRecord the cassette again with RecordingChatModel if the agent's requests changed on purpose.",
    );
  }
}

function replayedError(error: CassetteInteraction["error"], model: ReplayChatModel): Error {
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
