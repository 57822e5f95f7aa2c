import type { ConverseCommandOutput, TokenUsage } from "@aws-sdk/client-bedrock-runtime";
import type { ProviderOutput, ProviderToolCall } from "../../core/output.js";
import type { Usage } from "../../core/usage.js";
import { mapBedrockStopReason } from "./map-bedrock-stop-reason.js";

/**
 * A Converse reply → ProviderOutput. Server-side tool blocks (`type: "server_tool_use"` and the
 * `toolResult` blocks that answer them) are Bedrock's own business: they stay in `raw` only.
 */
export function readConverseResponse(response: ConverseCommandOutput): ProviderOutput {
  let text = "";
  let reasoning = "";
  let signature: string | undefined;
  const toolCalls: ProviderToolCall[] = [];
  for (const block of response.output?.message?.content ?? []) {
    if (block.text !== undefined) text += block.text;
    else if (block.reasoningContent?.reasoningText) {
      reasoning += block.reasoningContent.reasoningText.text ?? "";
      signature = block.reasoningContent.reasoningText.signature ?? signature;
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
  };
}

export function readBedrockUsage(usage: TokenUsage | undefined): Partial<Usage> {
  if (!usage) return {};
  const result: Partial<Usage> = {};
  if (usage.inputTokens !== undefined) result.inputTokens = usage.inputTokens;
  if (usage.outputTokens !== undefined) result.outputTokens = usage.outputTokens;
  if (usage.totalTokens !== undefined) result.totalTokens = usage.totalTokens;
  if (usage.cacheReadInputTokens !== undefined) result.cachedInputTokens = usage.cacheReadInputTokens;
  return result;
}
