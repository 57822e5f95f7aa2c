import type Anthropic from "@anthropic-ai/sdk";
import { ProviderError } from "../../core/errors/provider-error.js";
import {
  optionalRecord,
  optionalString,
  readingEvent,
  requiredIndex,
  requiredRecord,
  requiredString,
  tokenCount,
} from "../../core/reply-fields.js";
import type { ChatModelChunk } from "../../core/stream/chat-model-chunk.js";
import type { AnthropicUsageReport } from "./read-anthropic-message.js";
import { mapAnthropicStopReason, readAnthropicUsage } from "./read-anthropic-message.js";

/**
 * Messages API stream events → keelson chunks. A `tool_use` block start gives the call its id and
 * name (index = the block's index, so calls merge in the base class); its `input_json_delta`
 * fragments follow as argument deltas. A thinking block streams as reasoning deltas and ends with
 * its `signature_delta`; a `redacted_thinking` block comes whole in its start event. Usage starts
 * from `message_start` and is completed by `message_delta`, which also carries the stop reason.
 * A stream that ends without `message_stop` was cut short: a retryable network ProviderError,
 * never an answer. One reader per stream, for `chunkStream`.
 */
export class AnthropicStreamReader {
  readonly #modelId: string;
  readonly #toolBlocks = new Set<number>();
  /** The counts so far: `message_start`'s, each overwritten by a number `message_delta` sends. */
  readonly #usage: AnthropicUsageReport = {};
  #stopReason: string | null | undefined;
  #stopped = false;
  #message: Anthropic.Message | undefined;

  constructor(modelId: string) {
    this.#modelId = modelId;
  }

  get #source(): { providerId: string; modelId: string } {
    return { providerId: "anthropic", modelId: this.#modelId };
  }

  toChunks(event: Anthropic.RawMessageStreamEvent): ChatModelChunk[] {
    return readingEvent(this.#source, event, (type, raw) => this.#read(type, raw));
  }

  /** One event, each field it reads checked: a missing or misshapen one is an unreadableReply naming the event and field. */
  #read(type: string, event: Record<string, unknown>): ChatModelChunk[] {
    const source = this.#source;
    const at = (field: string) => `${type} event's ${field}`;
    switch (type) {
      case "message_start": {
        const message = requiredRecord(event.message, at("message"), source);
        this.#message = message as unknown as Anthropic.Message;
        mergeCounts(this.#usage, optionalRecord(message.usage, at("message.usage"), source));
        return [];
      }
      case "content_block_start": {
        const index = requiredIndex(event.index, at("index"), source);
        const block = requiredRecord(event.content_block, at("content_block"), source);
        const blockType = requiredString(block.type, at("content_block.type"), source);
        if (blockType === "tool_use") {
          const id = requiredString(block.id, at("content_block.id"), source);
          const name = requiredString(block.name, at("content_block.name"), source);
          this.#toolBlocks.add(index);
          return [{ type: "tool-call-delta", index, id, name }];
        }
        if (blockType === "redacted_thinking")
          return [
            {
              type: "reasoning-delta",
              text: "",
              redactedData: requiredString(block.data, at("content_block.data"), source),
            },
          ];
        if (blockType === "text") {
          const text = optionalString(block.text, at("content_block.text"), source) ?? "";
          return text === "" ? [] : [{ type: "text-delta", text }];
        }
        return [];
      }
      case "content_block_delta": {
        const index = requiredIndex(event.index, at("index"), source);
        const delta = requiredRecord(event.delta, at("delta"), source);
        switch (requiredString(delta.type, at("delta.type"), source)) {
          case "text_delta": {
            const text = requiredString(delta.text, at("delta.text"), source);
            return text === "" ? [] : [{ type: "text-delta", text }];
          }
          case "thinking_delta": {
            const text = requiredString(delta.thinking, at("delta.thinking"), source);
            return text === "" ? [] : [{ type: "reasoning-delta", text }];
          }
          case "signature_delta":
            return [
              {
                type: "reasoning-delta",
                text: "",
                signature: requiredString(delta.signature, at("delta.signature"), source),
              },
            ];
          case "input_json_delta": {
            const argsDelta = requiredString(delta.partial_json, at("delta.partial_json"), source);
            return this.#toolBlocks.has(index) ? [{ type: "tool-call-delta", index, argsDelta }] : [];
          }
          default:
            return [];
        }
      }
      case "message_delta": {
        const delta = requiredRecord(event.delta, at("delta"), source);
        this.#stopReason = optionalString(delta.stop_reason, at("delta.stop_reason"), source) ?? null;
        mergeCounts(this.#usage, optionalRecord(event.usage, at("usage"), source));
        return [];
      }
      case "message_stop":
        this.#stopped = true;
        return [];
      default:
        return [];
    }
  }

  end(): ChatModelChunk[] {
    if (!this.#stopped) {
      throw new ProviderError(`anthropic ${this.#modelId}: the stream ended before its message_stop event.`, {
        providerId: "anthropic",
        modelId: this.#modelId,
        reason: "network",
      });
    }
    return [
      {
        type: "finish",
        finishReason: mapAnthropicStopReason(this.#stopReason),
        usage: readAnthropicUsage(this.#usage),
        raw: { id: this.#message?.id, model: this.#message?.model, stop_reason: this.#stopReason },
      },
    ];
  }
}

const countFields = [
  "input_tokens",
  "output_tokens",
  "cache_creation_input_tokens",
  "cache_read_input_tokens",
] as const;

/**
 * Copies the counts a usage report gives as numbers: `message_delta` always sends `output_tokens`,
 * and newer API versions repeat the input counts there (a null one leaves `message_start`'s).
 */
function mergeCounts(into: AnthropicUsageReport, report: Record<string, unknown> | undefined): void {
  if (!report) return;
  for (const field of countFields) {
    const value = tokenCount(report[field]);
    if (value !== undefined) into[field] = value;
  }
}
