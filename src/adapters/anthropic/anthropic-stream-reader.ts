import type Anthropic from "@anthropic-ai/sdk";
import { ProviderError } from "../../core/errors/provider-error.js";
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

  toChunks(event: Anthropic.RawMessageStreamEvent): ChatModelChunk[] {
    switch (event.type) {
      case "message_start":
        this.#message = event.message;
        mergeCounts(this.#usage, event.message.usage);
        return [];
      case "content_block_start": {
        const block = event.content_block;
        if (block.type === "tool_use") {
          this.#toolBlocks.add(event.index);
          return [{ type: "tool-call-delta", index: event.index, id: block.id, name: block.name }];
        }
        if (block.type === "redacted_thinking")
          return [{ type: "reasoning-delta", text: "", redactedData: block.data }];
        if (block.type === "text" && block.text !== "") return [{ type: "text-delta", text: block.text }];
        return [];
      }
      case "content_block_delta": {
        const delta = event.delta;
        switch (delta.type) {
          case "text_delta":
            return delta.text === "" ? [] : [{ type: "text-delta", text: delta.text }];
          case "thinking_delta":
            return delta.thinking === "" ? [] : [{ type: "reasoning-delta", text: delta.thinking }];
          case "signature_delta":
            return [{ type: "reasoning-delta", text: "", signature: delta.signature }];
          case "input_json_delta":
            if (!this.#toolBlocks.has(event.index)) return [];
            return [{ type: "tool-call-delta", index: event.index, argsDelta: delta.partial_json }];
          default:
            return [];
        }
      }
      case "message_delta":
        this.#stopReason = event.delta.stop_reason;
        mergeCounts(this.#usage, event.usage);
        return [];
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
function mergeCounts(into: AnthropicUsageReport, report: AnthropicUsageReport | null | undefined): void {
  if (!report) return;
  for (const field of countFields) {
    const value = report[field];
    if (typeof value === "number") into[field] = value;
  }
}
