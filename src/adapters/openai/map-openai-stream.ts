import type { ChatCompletionChunk } from "openai/resources/chat/completions";
import { ProviderError } from "../../core/errors/provider-error.js";
import type { FinishReason } from "../../core/output.js";
import type { ChatModelChunk } from "../../core/stream/chat-model-chunk.js";
import type { Usage } from "../../core/usage.js";
import { mapOpenAIFinishReason } from "./map-openai-finish-reason.js";
import { mapOpenAIUsage } from "./map-openai-usage.js";
import { reasoningOf } from "./map-openai-response.js";

/**
 * chat.completion.chunk events as keelson chunks: text, reasoning and tool-call deltas (merged by
 * `index` downstream), usage from the usage chunk `stream_options.include_usage` adds, then one
 * `finish` whose `raw` is every chunk received (Azure's filter results included). A stream that
 * ends before any `finish_reason` was cut short: a retryable network ProviderError, never an answer.
 */
export async function* mapOpenAIStream(
  stream: AsyncIterable<ChatCompletionChunk>,
  where: { providerId: string; modelId: string },
): AsyncGenerator<ChatModelChunk> {
  const received: ChatCompletionChunk[] = [];
  let finishReason: FinishReason | undefined;
  let usage: Partial<Usage> | undefined;
  for await (const chunk of stream) {
    if (chunk === null || typeof chunk !== "object") {
      throw new ProviderError(`${where.providerId} ${where.modelId}: the stream sent an event that is not a chunk (${JSON.stringify(chunk)}).`, {
        ...where,
        reason: "server",
      });
    }
    received.push(chunk);
    if (chunk.usage) {
      usage = mapOpenAIUsage(chunk.usage)!;
      yield { type: "usage", usage };
    }
    const choice = chunk.choices?.find((candidate) => candidate.index === 0);
    if (!choice) continue;
    const { delta } = choice;
    const reasoning = reasoningOf(delta);
    if (reasoning) yield { type: "reasoning-delta", text: reasoning };
    if (delta?.content) yield { type: "text-delta", text: delta.content };
    if (delta?.refusal) {
      finishReason = "content-filter";
      yield { type: "text-delta", text: delta.refusal };
    }
    for (const call of delta?.tool_calls ?? []) {
      yield {
        type: "tool-call-delta",
        index: call.index,
        ...(call.id ? { id: call.id } : {}),
        ...(call.function?.name ? { name: call.function.name } : {}),
        ...(call.function?.arguments ? { argsDelta: call.function.arguments } : {}),
      };
    }
    if (choice.finish_reason && finishReason !== "content-filter") finishReason = mapOpenAIFinishReason(choice.finish_reason);
  }
  // The SDK ends quietly when the body stops early; only a finish_reason says the reply is whole.
  if (finishReason === undefined) {
    throw new ProviderError(
      `${where.providerId} ${where.modelId}: the stream ended before its final chunk (no finish_reason after ${received.length} chunks).`,
      { ...where, reason: "network" },
    );
  }
  yield { type: "finish", finishReason, ...(usage ? { usage } : {}), raw: received };
}
