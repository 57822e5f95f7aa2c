import type { ChatCompletionChunk } from "openai/resources/chat/completions";
import { ProviderError } from "../../core/errors/provider-error.js";
import { unreadableReply } from "../../core/errors/unreadable-reply.js";
import { isRecord, optionalRecord, optionalRecords, optionalString } from "../../core/reply-fields.js";
import type { FinishReason } from "../../core/output.js";
import type { ChatModelChunk } from "../../core/stream/chat-model-chunk.js";
import type { Usage } from "../../core/usage.js";
import { mapOpenAIFinishReason } from "./map-openai-finish-reason.js";
import { mapOpenAIUsage } from "./map-openai-usage.js";
import { thoughtSignatureOf } from "./map-openai-response.js";
import type { OpenAIReasoningField } from "./convert-to-openai-messages.js";
import { argumentsOf, reasoningFieldOf, reasoningOf } from "./map-openai-response.js";

/** A tool-call delta's wire index: a whole number within reason (an index is a position, not a size). */
function isWireIndex(value: unknown): value is number {
  return Number.isSafeInteger(value) && (value as number) >= 0 && (value as number) < 1_000;
}

/**
 * chat.completion.chunk events as keelson chunks: text, reasoning and tool-call deltas (merged by
 * `index` downstream), usage from the usage chunk `stream_options.include_usage` adds, then one
 * `finish` whose `raw` is every chunk received (Azure's filter results included). A stream that
 * ends before any `finish_reason` was cut short: a retryable network ProviderError, never an answer.
 * One reader per stream (it keeps what the closing `finish` needs), for `chunkStream`.
 */
/** An error the server reported as a chunk (`{ object: "error" }`, or an `error` the SDK let through), if this is one. */
export type ReportedError = (chunk: unknown) => ProviderError | undefined;

/**
 * chat.completion.chunk events as keelson chunks: text, reasoning and tool-call deltas (merged by
 * `index` downstream), usage from the usage chunk `stream_options.include_usage` adds, then one
 * `finish` whose `raw` is every chunk received (Azure's filter results included). A stream that
 * ends before any `finish_reason` was cut short: a retryable network ProviderError, never an answer.
 * The finish reason is passed on (a `finish` chunk) as soon as it comes, so that a stream that breaks
 * after it (OpenRouter's error chunk after `length`) keeps it in its partial output; the closing
 * `finish` after the last chunk repeats it with the usage and `raw`. An error the server reports as a
 * chunk (vLLM's `{ object: "error", message }`) is that error, with the server's message. Chunks
 * are read defensively: a field of the wrong shape is an `unreadableReply` naming it.
 * One reader per stream (it keeps what the closing `finish` needs), for `chunkStream`.
 */
export class OpenAIStreamReader {
  readonly #where: { providerId: string; modelId: string };
  readonly #reported: ReportedError | undefined;
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

  constructor(where: { providerId: string; modelId: string }, reported?: ReportedError) {
    this.#where = where;
    this.#reported = reported;
  }

  toChunks(chunk: ChatCompletionChunk): ChatModelChunk[] {
    const where = this.#where;
    if (!isRecord(chunk)) throw unreadableReply(where, "stream event", "a chunk object", chunk);
    const report = this.#reported?.(chunk);
    if (report) throw report;
    this.#received.push(chunk);
    const chunks: ChatModelChunk[] = [];
    if (chunk.usage) {
      const usage = mapOpenAIUsage(chunk.usage);
      if (usage) {
        this.#usage = usage;
        chunks.push({ type: "usage", usage });
      }
    }
    const choices = optionalRecords(chunk.choices, "choices", where) ?? [];
    const choice = choices.find((candidate) => candidate.index === 0 || candidate.index === undefined);
    if (!choice) return chunks;
    const delta = optionalRecord(choice.delta, "choices[0].delta", where);
    const reasoning = reasoningOf(delta);
    if (reasoning) {
      this.#reasoningField ??= reasoningFieldOf(delta);
      chunks.push({ type: "reasoning-delta", text: reasoning });
    }
    const content = optionalString(delta?.content, "choices[0].delta.content", where);
    if (content) chunks.push({ type: "text-delta", text: content });
    const refusal = optionalString(delta?.refusal, "choices[0].delta.refusal", where);
    if (refusal) {
      this.#finishReason = "content-filter";
      chunks.push({ type: "text-delta", text: refusal });
    }
    const calls = optionalRecords(delta?.tool_calls, "choices[0].delta.tool_calls", where) ?? [];
    calls.forEach((call, position) => {
      const path = `choices[0].delta.tool_calls[${position}]`;
      const called = optionalRecord(call.function, `${path}.function`, where);
      const id = optionalString(call.id, `${path}.id`, where);
      const name = optionalString(called?.name, `${path}.function.name`, where);
      const args = argumentsOf(called?.arguments, `${path}.function.arguments`, where);
      const argsDelta = typeof args === "string" ? args : JSON.stringify(args);
      if (call.index !== undefined && call.index !== null && !isWireIndex(call.index))
        throw unreadableReply(where, `${path}.index`, "a whole number", call.index);
      chunks.push({
        type: "tool-call-delta",
        index: this.#indexOf({ index: isWireIndex(call.index) ? call.index : undefined, id, name }),
        ...(id ? { id } : {}),
        ...(name ? { name } : {}),
        ...(argsDelta ? { argsDelta } : {}),
        ...thoughtSignatureOf(call),
      });
    });
    const finishReason = optionalString(choice.finish_reason, "choices[0].finish_reason", where);
    if (finishReason && this.#finishReason !== "content-filter") {
      const mapped = mapOpenAIFinishReason(finishReason);
      if (mapped !== undefined && mapped !== this.#finishReason) {
        this.#finishReason = mapped;
        chunks.push({ type: "finish", finishReason: mapped });
      }
    }
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
  #indexOf(call: { index: number | undefined; id: string | undefined; name: string | undefined }): number {
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
        else index = call.name ? this.#nextIndex : current.index;
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
