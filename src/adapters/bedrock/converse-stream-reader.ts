import type { ConverseStreamMetadataEvent, ConverseStreamOutput } from "@aws-sdk/client-bedrock-runtime";
import { ProviderError } from "../../core/errors/provider-error.js";
import type { FinishReason } from "../../core/output.js";
import type { ReplySource } from "../../core/errors/unreadable-reply.js";
import { unreadableReply } from "../../core/errors/unreadable-reply.js";
import { isRecord, optionalRecord, optionalString } from "../../core/reply-fields.js";
import type { ChatModelChunk } from "../../core/stream/chat-model-chunk.js";
import { readBedrockUsage } from "./read-converse-response.js";
import { mapBedrockStopReason } from "./map-bedrock-stop-reason.js";

/**
 * ConverseStream events → keelson chunks. A `toolUse` block start gives the call its id and name
 * (index = `contentBlockIndex`, so calls merge in the base class); its `input` fragments follow as
 * argument deltas. Server-side tool blocks and their results are skipped. Usage comes from
 * `metadata`, the finish reason from `messageStop`; one `finish` chunk closes the stream. A stream
 * that ends without `messageStop` was cut short: a retryable network ProviderError, never an answer.
 * One reader per stream, for `chunkStream`.
 */
export class ConverseStreamReader {
  readonly #modelId: string;
  readonly #skipped = new Set<number>();
  #stopReason: string | undefined;
  #metadata: ConverseStreamMetadataEvent | undefined;
  #finishReason: FinishReason | undefined;

  constructor(modelId: string) {
    this.#modelId = modelId;
  }

  toChunks(event: ConverseStreamOutput): ChatModelChunk[] {
    const source = { providerId: "bedrock", modelId: this.#modelId };
    if (!isRecord(event)) throw unreadableReply(source, "stream event", "an object", event);
    const exception = streamException(event);
    if (exception) throw exception;
    const start = optionalRecord(event.contentBlockStart, "contentBlockStart", source);
    if (start) {
      const index = blockIndex(start.contentBlockIndex, "contentBlockStart.contentBlockIndex", source);
      const toolUse = optionalRecord(
        optionalRecord(start.start, "contentBlockStart.start", source)?.toolUse,
        "contentBlockStart.start.toolUse",
        source,
      );
      if (
        !toolUse ||
        optionalString(toolUse.type, "contentBlockStart.start.toolUse.type", source) === "server_tool_use"
      ) {
        this.#skipped.add(index);
        return [];
      }
      const id = optionalString(toolUse.toolUseId, "contentBlockStart.start.toolUse.toolUseId", source);
      const name = optionalString(toolUse.name, "contentBlockStart.start.toolUse.name", source);
      return [{ type: "tool-call-delta", index, ...(id ? { id } : {}), name: name ?? "" }];
    }
    const blockDelta = optionalRecord(event.contentBlockDelta, "contentBlockDelta", source);
    if (blockDelta) {
      const index = blockIndex(blockDelta.contentBlockIndex, "contentBlockDelta.contentBlockIndex", source);
      const delta = optionalRecord(blockDelta.delta, "contentBlockDelta.delta", source);
      if (!delta || this.#skipped.has(index)) return [];
      const text = optionalString(delta.text, "contentBlockDelta.delta.text", source);
      if (text !== undefined) return [{ type: "text-delta", text }];
      const toolUse = optionalRecord(delta.toolUse, "contentBlockDelta.delta.toolUse", source);
      if (toolUse) {
        const input = optionalString(toolUse.input, "contentBlockDelta.delta.toolUse.input", source);
        return [{ type: "tool-call-delta", index, argsDelta: input ?? "" }];
      }
      const reasoning = optionalRecord(delta.reasoningContent, "contentBlockDelta.delta.reasoningContent", source);
      if (!reasoning) return [];
      const reasoningText = optionalString(reasoning.text, "contentBlockDelta.delta.reasoningContent.text", source);
      if (reasoningText !== undefined) return [{ type: "reasoning-delta", text: reasoningText }];
      const signature = optionalString(
        reasoning.signature,
        "contentBlockDelta.delta.reasoningContent.signature",
        source,
      );
      if (signature !== undefined) return [{ type: "reasoning-delta", text: "", signature }];
      const redacted = reasoning.redactedContent;
      if (redacted !== undefined && redacted !== null) {
        if (!(redacted instanceof Uint8Array))
          throw unreadableReply(source, "contentBlockDelta.delta.reasoningContent.redactedContent", "bytes", redacted);
        return [{ type: "reasoning-delta", text: "", redactedData: Buffer.from(redacted).toString("base64") }];
      }
      return [];
    }
    const stop = optionalRecord(event.messageStop, "messageStop", source);
    if (stop) {
      this.#stopReason = optionalString(stop.stopReason, "messageStop.stopReason", source) ?? "";
      this.#finishReason = mapBedrockStopReason(this.#stopReason);
    } else {
      const metadata = optionalRecord(event.metadata, "metadata", source);
      if (metadata) this.#metadata = metadata as unknown as ConverseStreamMetadataEvent;
    }
    return [];
  }

  end(): ChatModelChunk[] {
    if (this.#stopReason === undefined) {
      throw new ProviderError(`bedrock ${this.#modelId}: the stream ended before its messageStop event.`, {
        providerId: "bedrock",
        modelId: this.#modelId,
        reason: "network",
      });
    }
    const metadata = this.#metadata;
    return [
      {
        type: "finish",
        finishReason: this.#finishReason ?? "other",
        usage: readBedrockUsage(metadata?.usage),
        raw: { stopReason: this.#stopReason, usage: metadata?.usage, metrics: metadata?.metrics },
      },
    ];
  }
}

const exceptionMembers = {
  internalServerException: "InternalServerException",
  modelStreamErrorException: "ModelStreamErrorException",
  serviceUnavailableException: "ServiceUnavailableException",
  throttlingException: "ThrottlingException",
  validationException: "ValidationException",
} as const;

/** A content block's index: a whole number within reason (absent is the first block). */
function blockIndex(value: unknown, path: string, source: ReplySource): number {
  if (value === undefined || value === null) return 0;
  if (Number.isSafeInteger(value) && (value as number) >= 0 && (value as number) < 1_000) return value as number;
  throw unreadableReply(source, path, "a whole number", value);
}

/** An exception the service sent as a stream event (the SDK usually throws these itself). */
function streamException(event: object): Error | undefined {
  for (const [member, name] of Object.entries(exceptionMembers)) {
    const payload = (event as unknown as Record<string, { message?: unknown } | undefined>)[member];
    if (payload) {
      const message = typeof payload.message === "string" && payload.message !== "" ? payload.message : name;
      return Object.assign(new Error(message), { name });
    }
  }
  return undefined;
}
