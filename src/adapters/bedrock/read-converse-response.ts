import type { ConverseCommandOutput, TokenUsage } from "@aws-sdk/client-bedrock-runtime";
import type { ReasoningPart } from "../../core/messages.js";
import type { ProviderOutput, ProviderToolCall } from "../../core/output.js";
import type { Usage } from "../../core/usage.js";
import { mapBedrockStopReason } from "./map-bedrock-stop-reason.js";

/**
 * A Converse reply → ProviderOutput. Server-side tool blocks (`type: "server_tool_use"` and the
 * `toolResult` blocks that answer them) are Bedrock's own business: they stay in `raw` only.
 * Each reasoning block is kept apart, with its signature or its redacted bytes (base64), for Claude
 * wants them all back unmodified.
 */
export function readConverseResponse(response: ConverseCommandOutput): ProviderOutput {
  let text = "";
  let reasoning = "";
  let signature: string | undefined;
  const reasoningParts: ReasoningPart[] = [];
  const toolCalls: ProviderToolCall[] = [];
  for (const block of response.output?.message?.content ?? []) {
    if (block.text !== undefined) text += block.text;
    else if (block.reasoningContent?.reasoningText) {
      const { text: part = "", signature: partSignature } = block.reasoningContent.reasoningText;
      reasoning += part;
      signature = partSignature ?? signature;
      reasoningParts.push({ type: "reasoning", text: part, ...(partSignature ? { signature: partSignature } : {}) });
    } else if (block.reasoningContent?.redactedContent) {
      reasoningParts.push({
        type: "reasoning",
        text: "",
        redactedData: Buffer.from(block.reasoningContent.redactedContent).toString("base64"),
      });
    } else if (block.toolUse && block.toolUse.type !== "server_tool_use") {
      toolCalls.push({ id: block.toolUse.toolUseId, name: block.toolUse.name ?? "", args: block.toolUse.input });
    }
  }
  return {
    text,
    reasoning,
    toolCalls,
    finishReason: mapBedrockStopReason(response.stopReason),
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
 * `cachedInputTokens` (the cache reads) a part of it, as OpenAI's `prompt_tokens` and OpenTelemetry's
 * `gen_ai.usage.input_tokens` are.
 */
export function readBedrockUsage(usage: TokenUsage | undefined): Partial<Usage> {
  if (!usage) return {};
  const result: Partial<Usage> = {};
  const cacheRead = usage.cacheReadInputTokens ?? 0;
  const cacheWrite = usage.cacheWriteInputTokens ?? 0;
  if (usage.inputTokens !== undefined) result.inputTokens = usage.inputTokens + cacheRead + cacheWrite;
  if (usage.outputTokens !== undefined) result.outputTokens = usage.outputTokens;
  if (usage.totalTokens !== undefined) result.totalTokens = usage.totalTokens;
  if (usage.cacheReadInputTokens !== undefined) result.cachedInputTokens = usage.cacheReadInputTokens;
  return result;
}
