import type { ChatCompletionChunk } from "openai/resources/chat/completions";
import { ProviderError } from "../../core/errors/provider-error.js";
import type { FinishReason } from "../../core/output.js";
import type { ChatModelChunk } from "../../core/stream/chat-model-chunk.js";
import type { Usage } from "../../core/usage.js";
import { mapOpenAIFinishReason } from "./map-openai-finish-reason.js";
import { mapOpenAIUsage } from "./map-openai-usage.js";
import type { OpenAIReasoningField } from "./convert-to-openai-messages.js";
import { reasoningFieldOf, reasoningOf } from "./map-openai-response.js";

/**
 * chat.completion.chunk events as keelson chunks: text, reasoning and tool-call deltas (merged by
 * `index` downstream), usage from the usage chunk `stream_options.include_usage` adds, then one
 * `finish` whose `raw` is every chunk received (Azure's filter results included). A stream that
 * ends before any `finish_reason` was cut short: a retryable network ProviderError, never an answer.
 * One reader per stream (it keeps what the closing `finish` needs), for `chunkStream`.
 */
export class OpenAIStreamReader {
  readonly #where: { providerId: string; modelId: string };
  readonly #received: ChatCompletionChunk[] = [];
  #finishReason: FinishReason | undefined;
  #reasoningField: OpenAIReasoningField | undefined;
  #usage: Partial<Usage> | undefined;
  // For tool-call deltas without `index` (Gemini's OpenAI endpoint, some proxies) or with one index
  // for every call (vLLM, SGLang): each call's index by its id (made when a delta first carries an
  // id), the call each wire `index` last stood for, the last call's index, and the next new call's.
  #indexById: Map<string, number> | undefined;
  #callAtWireIndex: Map<number, { index: number; id?: string }> | undefined;
  readonly #usedIndexes = new Set<number>();
  #lastIndex = -1;
  #nextIndex = 0;

  constructor(where: { providerId: string; modelId: string }) {
    this.#where = where;
  }

  toChunks(chunk: ChatCompletionChunk): ChatModelChunk[] {
    if (chunk === null || typeof chunk !== "object") {
      throw new ProviderError(
        `${this.#where.providerId} ${this.#where.modelId}: the stream sent an event that is not a chunk (${JSON.stringify(chunk)}).`,
        {
          ...this.#where,
          reason: "server",
        },
      );
    }
    this.#received.push(chunk);
    const chunks: ChatModelChunk[] = [];
    if (chunk.usage) {
      this.#usage = mapOpenAIUsage(chunk.usage)!;
      chunks.push({ type: "usage", usage: this.#usage });
    }
    const choice = chunk.choices?.find((candidate) => candidate.index === 0);
    if (!choice) return chunks;
    const { delta } = choice;
    const reasoning = reasoningOf(delta);
    if (reasoning) {
      this.#reasoningField ??= reasoningFieldOf(delta);
      chunks.push({ type: "reasoning-delta", text: reasoning });
    }
    if (delta?.content) chunks.push({ type: "text-delta", text: delta.content });
    if (delta?.refusal) {
      this.#finishReason = "content-filter";
      chunks.push({ type: "text-delta", text: delta.refusal });
    }
    for (const call of delta?.tool_calls ?? []) {
      chunks.push({
        type: "tool-call-delta",
        index: this.#indexOf(call),
        ...(call.id ? { id: call.id } : {}),
        ...(call.function?.name ? { name: call.function.name } : {}),
        ...(call.function?.arguments ? { argsDelta: call.function.arguments } : {}),
      });
    }
    if (choice.finish_reason && this.#finishReason !== "content-filter")
      this.#finishReason = mapOpenAIFinishReason(choice.finish_reason);
    return chunks;
  }

  /**
   * A tool-call delta's index. With an `index`: an index no call took yet is a new call (whatever
   * its id: some servers give every call one id); the call that index stands for, unless the delta
   * brings another id and a name where that call had an id (vLLM and SGLang number every call of a
   * parallel reply 0): then a known id is its own call's, a new one a new call. Another id without a
   * name continues the call (some servers change the id between fragments). Without an `index`: a
   * known id is its own call's, a new id a new call, and a delta with no id continues the last call.
   */
  #indexOf(call: {
    index?: number | undefined;
    id?: string | undefined;
    function?: { name?: string | undefined } | undefined;
  }): number {
    const known = call.id ? this.#indexById?.get(call.id) : undefined;
    const newOrLast = () => (call.id || this.#lastIndex === -1 ? this.#nextIndex : this.#lastIndex);
    let index: number;
    if (typeof call.index === "number") {
      const current = this.#callAtWireIndex?.get(call.index);
      if (current === undefined) {
        index = this.#usedIndexes.has(call.index) ? (known ?? newOrLast()) : call.index;
      } else {
        const anotherId = call.id && current.id !== undefined && current.id !== call.id;
        if (!anotherId) index = current.index;
        else if (known !== undefined) index = known;
        else index = call.function?.name ? this.#nextIndex : current.index;
      }
      const id = call.id || this.#callAtWireIndex?.get(call.index)?.id;
      (this.#callAtWireIndex ??= new Map()).set(call.index, id === undefined ? { index } : { index, id });
    } else {
      index = known ?? newOrLast();
    }
    if (call.id) (this.#indexById ??= new Map()).set(call.id, index);
    this.#usedIndexes.add(index);
    this.#lastIndex = index;
    if (index >= this.#nextIndex) this.#nextIndex = index + 1;
    return index;
  }

  /** The field the stream's reasoning came in (`reasoning_content` or `reasoning`), once some came. */
  get reasoningField(): OpenAIReasoningField | undefined {
    return this.#reasoningField;
  }

  end(): ChatModelChunk[] {
    // The SDK ends quietly when the body stops early; only a finish_reason says the reply is whole.
    if (this.#finishReason === undefined) {
      throw new ProviderError(
        `${this.#where.providerId} ${this.#where.modelId}: the stream ended before its final chunk (no finish_reason after ${this.#received.length} chunks).`,
        { ...this.#where, reason: "network" },
      );
    }
    return [
      {
        type: "finish",
        finishReason: this.#finishReason,
        ...(this.#usage ? { usage: this.#usage } : {}),
        raw: this.#received,
      },
    ];
  }
}
