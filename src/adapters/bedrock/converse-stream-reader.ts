import type { ConverseStreamMetadataEvent, ConverseStreamOutput } from "@aws-sdk/client-bedrock-runtime";
import { ProviderError } from "../../core/errors/provider-error.js";
import type { FinishReason } from "../../core/output.js";
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
    const exception = streamException(event);
    if (exception) throw exception;
    if (event.contentBlockStart) {
      const index = event.contentBlockStart.contentBlockIndex ?? 0;
      const toolUse = event.contentBlockStart.start?.toolUse;
      if (!toolUse || toolUse.type === "server_tool_use") {
        this.#skipped.add(index);
        return [];
      }
      return [
        {
          type: "tool-call-delta",
          index,
          ...(toolUse.toolUseId ? { id: toolUse.toolUseId } : {}),
          name: toolUse.name ?? "",
        },
      ];
    }
    if (event.contentBlockDelta) {
      const index = event.contentBlockDelta.contentBlockIndex ?? 0;
      const delta = event.contentBlockDelta.delta;
      if (!delta || this.#skipped.has(index)) return [];
      if (delta.text !== undefined) return [{ type: "text-delta", text: delta.text }];
      if (delta.toolUse) return [{ type: "tool-call-delta", index, argsDelta: delta.toolUse.input ?? "" }];
      if (delta.reasoningContent?.text !== undefined)
        return [{ type: "reasoning-delta", text: delta.reasoningContent.text }];
      if (delta.reasoningContent?.signature !== undefined)
        return [{ type: "reasoning-delta", text: "", signature: delta.reasoningContent.signature }];
      if (delta.reasoningContent?.redactedContent !== undefined) {
        return [
          {
            type: "reasoning-delta",
            text: "",
            redactedData: Buffer.from(delta.reasoningContent.redactedContent).toString("base64"),
          },
        ];
      }
      return [];
    }
    if (event.messageStop) {
      this.#stopReason = event.messageStop.stopReason;
      this.#finishReason = mapBedrockStopReason(this.#stopReason);
    } else if (event.metadata) {
      this.#metadata = event.metadata;
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

/** An exception the service sent as a stream event (the SDK usually throws these itself). */
function streamException(event: ConverseStreamOutput): Error | undefined {
  for (const [member, name] of Object.entries(exceptionMembers)) {
    const payload = (event as unknown as Record<string, { message?: string } | undefined>)[member];
    if (payload) return Object.assign(new Error(payload.message ?? name), { name });
  }
  return undefined;
}
