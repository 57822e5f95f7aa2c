import type { ConverseCommandOutput, TokenUsage } from "@aws-sdk/client-bedrock-runtime";
import type { ReasoningPart } from "../../core/messages.js";
import type { ProviderOutput, ProviderToolCall } from "../../core/output.js";
import { unreadableReply } from "../../core/errors/unreadable-reply.js";
import { isRecord, optionalRecord, optionalRecords, optionalString, tokenCount } from "../../core/reply-fields.js";
import type { Usage } from "../../core/usage.js";
import { mapBedrockStopReason } from "./map-bedrock-stop-reason.js";

/**
 * A Converse reply → ProviderOutput. Server-side tool blocks (`type: "server_tool_use"` and the
 * `toolResult` blocks that answer them) are Bedrock's own business: they stay in `raw` only.
 * Each reasoning block is kept apart, with its signature or its redacted bytes (base64), for Claude
 * wants them all back unmodified.
 */
export function readConverseResponse(response: ConverseCommandOutput, modelId: string): ProviderOutput {
  const source = { providerId: "bedrock", modelId };
  let text = "";
  let reasoning = "";
  let signature: string | undefined;
  const reasoningParts: ReasoningPart[] = [];
  const toolCalls: ProviderToolCall[] = [];
  const output = optionalRecord(response.output, "output", source);
  const message = optionalRecord(output?.message, "output.message", source);
  const blocks = optionalRecords(message?.content, "output.message.content", source) ?? [];
  blocks.forEach((block, index) => {
    const path = `output.message.content[${index}]`;
    const blockText = optionalString(block.text, `${path}.text`, source);
    const reasoningContent = optionalRecord(block.reasoningContent, `${path}.reasoningContent`, source);
    const reasoningText = optionalRecord(
      reasoningContent?.reasoningText,
      `${path}.reasoningContent.reasoningText`,
      source,
    );
    const toolUse = optionalRecord(block.toolUse, `${path}.toolUse`, source);
    if (blockText !== undefined) text += blockText;
    else if (reasoningText) {
      const part = optionalString(reasoningText.text, `${path}.reasoningContent.reasoningText.text`, source) ?? "";
      const partSignature = optionalString(
        reasoningText.signature,
        `${path}.reasoningContent.reasoningText.signature`,
        source,
      );
      reasoning += part;
      signature = partSignature ?? signature;
      reasoningParts.push({ type: "reasoning", text: part, ...(partSignature ? { signature: partSignature } : {}) });
    } else if (reasoningContent?.redactedContent !== undefined && reasoningContent.redactedContent !== null) {
      const redacted = reasoningContent.redactedContent;
      if (!(redacted instanceof Uint8Array))
        throw unreadableReply(source, `${path}.reasoningContent.redactedContent`, "bytes", redacted);
      reasoningParts.push({ type: "reasoning", text: "", redactedData: Buffer.from(redacted).toString("base64") });
    } else if (toolUse && optionalString(toolUse.type, `${path}.toolUse.type`, source) !== "server_tool_use") {
      toolCalls.push({
        id: optionalString(toolUse.toolUseId, `${path}.toolUse.toolUseId`, source),
        name: optionalString(toolUse.name, `${path}.toolUse.name`, source) ?? "",
        args: toolUse.input,
      });
    }
  });
  return {
    text,
    reasoning,
    toolCalls,
    finishReason: mapBedrockStopReason(optionalString(response.stopReason, "stopReason", source)),
    usage: readBedrockUsage(response.usage),
    raw: response,
    ...(signature ? { reasoningSignature: signature } : {}),
    ...(reasoningParts.length > 0 ? { reasoningParts } : {}),
  };
}

/**
 * Bedrock's usage in keelson's terms. Bedrock's `inputTokens` is only the input that was neither
 * read from nor written to the prompt cache (the three are billed at different rates), and its
 * `totalTokens` counts all of them; keelson's `inputTokens` is the whole prompt, with
 * `cachedInputTokens` (the cache reads) and `cacheWriteInputTokens` (the writes) parts of it, as OpenAI's `prompt_tokens` and OpenTelemetry's
 * `gen_ai.usage.input_tokens` are.
 */
export function readBedrockUsage(usage: TokenUsage | undefined): Partial<Usage> {
  if (!isRecord(usage)) return {};
  const result: Partial<Usage> = {};
  const cacheRead = tokenCount(usage.cacheReadInputTokens);
  const cacheWriteReported = tokenCount(usage.cacheWriteInputTokens);
  const cacheWrite = cacheWriteReported ?? 0;
  const input = tokenCount(usage.inputTokens);
  const output = tokenCount(usage.outputTokens);
  const total = tokenCount(usage.totalTokens);
  if (input !== undefined) result.inputTokens = input + (cacheRead ?? 0) + cacheWrite;
  if (output !== undefined) result.outputTokens = output;
  if (total !== undefined) result.totalTokens = total;
  if (cacheRead !== undefined) result.cachedInputTokens = cacheRead;
  // Priced at the cache-write rate (`usage.costUsd`), which Bedrock bills above the input rate.
  if (cacheWriteReported !== undefined) result.cacheWriteInputTokens = cacheWriteReported;
  return result;
}
