import type { GenerateContentResponse } from "@google/genai";
import { ProviderError } from "../../core/errors/provider-error.js";
import type { FinishReason } from "../../core/output.js";
import type { ChatModelChunk } from "../../core/stream/chat-model-chunk.js";
import type { Usage } from "../../core/usage.js";
import { googleFinishReason, readGoogleUsage, readPart } from "./read-google-response.js";

/**
 * Reads one `streamGenerateContent` reply, event by event: text and thoughts as deltas, each
 * `functionCall` as a whole `tool-call` chunk (Gemini sends a call in one event) with its
 * signature, a signature on an answer part as a signed reasoning chunk, the usage of the latest
 * event, and one `finish` at the end.
 */
export class GoogleStreamReader {
  #finishReason: FinishReason | undefined;
  #usage: Partial<Usage> = {};
  #last: GenerateContentResponse | undefined;
  readonly #modelId: string;

  constructor(modelId: string) {
    this.#modelId = modelId;
  }

  toChunks(event: GenerateContentResponse): ChatModelChunk[] {
    const chunks: ChatModelChunk[] = [];
    this.#last = event;
    for (const part of event.candidates?.[0]?.content?.parts ?? []) {
      const read = readPart(part);
      if (read.text) chunks.push({ type: "text-delta", text: read.text });
      if (read.reasoning) {
        const { text, signature } = read.reasoning;
        chunks.push({ type: "reasoning-delta", text, ...(signature ? { signature } : {}) });
      }
      if (read.toolCall) {
        const { id, name, args, signature } = read.toolCall;
        chunks.push({
          type: "tool-call",
          toolCall: {
            type: "tool-call",
            id: id ?? "",
            name,
            args: args as Record<string, unknown>,
            ...(signature ? { signature } : {}),
          },
        });
      }
    }
    const reason = googleFinishReason(event);
    if (reason !== undefined) this.#finishReason = reason;
    if (event.usageMetadata) this.#usage = readGoogleUsage(event.usageMetadata);
    return chunks;
  }

  /** The closing chunk: the last finish reason and usage reported; a stream that ended before one was cut off. */
  end(): ChatModelChunk[] {
    if (this.#finishReason === undefined) {
      throw new ProviderError(`google ${this.#modelId}: the stream ended before the reply finished.`, {
        providerId: "google",
        modelId: this.#modelId,
        reason: "network",
      });
    }
    return [
      {
        type: "finish",
        finishReason: this.#finishReason,
        usage: this.#usage,
        ...(this.#last === undefined ? {} : { raw: this.#last }),
      },
    ];
  }
}
