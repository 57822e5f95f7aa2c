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
 */
export async function* converseStreamChunks(events: AsyncIterable<ConverseStreamOutput>, modelId: string): AsyncGenerator<ChatModelChunk> {
  const skipped = new Set<number>();
  let stopReason: string | undefined;
  let metadata: ConverseStreamMetadataEvent | undefined;
  let finishReason: FinishReason | undefined;
  for await (const event of events) {
    const exception = streamException(event);
    if (exception) throw exception;
    if (event.contentBlockStart) {
      const index = event.contentBlockStart.contentBlockIndex ?? 0;
      const toolUse = event.contentBlockStart.start?.toolUse;
      if (!toolUse || toolUse.type === "server_tool_use") skipped.add(index);
      else yield { type: "tool-call-delta", index, ...(toolUse.toolUseId ? { id: toolUse.toolUseId } : {}), name: toolUse.name ?? "" };
    } else if (event.contentBlockDelta) {
      const index = event.contentBlockDelta.contentBlockIndex ?? 0;
      const delta = event.contentBlockDelta.delta;
      if (!delta || skipped.has(index)) continue;
      if (delta.text !== undefined) yield { type: "text-delta", text: delta.text };
      else if (delta.toolUse) yield { type: "tool-call-delta", index, argsDelta: delta.toolUse.input ?? "" };
      else if (delta.reasoningContent?.text !== undefined) yield { type: "reasoning-delta", text: delta.reasoningContent.text };
      else if (delta.reasoningContent?.signature !== undefined) {
        yield { type: "reasoning-delta", text: "", signature: delta.reasoningContent.signature };
      }
    } else if (event.messageStop) {
      stopReason = event.messageStop.stopReason;
      finishReason = mapBedrockStopReason(stopReason);
    } else if (event.metadata) {
      metadata = event.metadata;
    }
  }
  if (stopReason === undefined) {
    throw new ProviderError(`bedrock ${modelId}: the stream ended before its messageStop event.`, {
      providerId: "bedrock",
      modelId,
      reason: "network",
    });
  }
  yield {
    type: "finish",
    finishReason: finishReason ?? "other",
    usage: readBedrockUsage(metadata?.usage),
    raw: { stopReason, usage: metadata?.usage, metrics: metadata?.metrics },
  };
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
