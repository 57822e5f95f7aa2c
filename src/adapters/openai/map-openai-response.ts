import type { ChatCompletion } from "openai/resources/chat/completions";
import type { ProviderOutput, ProviderToolCall } from "../../core/output.js";
import type { OpenAIReasoningField } from "./convert-to-openai-messages.js";
import { mapOpenAIFinishReason } from "./map-openai-finish-reason.js";
import { mapOpenAIUsage } from "./map-openai-usage.js";

/** Reasoning text that OpenAI-compatible servers add to a message (`reasoning_content` or `reasoning`). */
export function reasoningOf(message: object | null | undefined): string | undefined {
  const field = reasoningFieldOf(message);
  return field === undefined ? undefined : (message as Record<OpenAIReasoningField, string>)[field];
}

/** Which field carries that reasoning, to send it back where this server reads it. */
export function reasoningFieldOf(message: object | null | undefined): OpenAIReasoningField | undefined {
  const fields = message as { reasoning_content?: unknown; reasoning?: unknown } | null | undefined;
  if (typeof fields?.reasoning_content === "string" && fields.reasoning_content !== "") return "reasoning_content";
  if (typeof fields?.reasoning === "string" && fields.reasoning !== "") return "reasoning";
  return undefined;
}

/**
 * A chat completion as a provider output: the first choice's text, reasoning and tool calls (the
 * arguments as the raw string; the base class parses and repairs them). A refusal is the text, with
 * finish reason `content-filter`. `raw` is the SDK's response, as it came.
 */
export function mapOpenAIResponse(completion: ChatCompletion): ProviderOutput {
  const choice = completion.choices?.[0];
  const message = choice?.message;
  const toolCalls: ProviderToolCall[] = [];
  const given = message?.tool_calls ?? [];
  for (let index = 0; index < given.length; index++) {
    const call = given[index]!;
    // Mistral's API leaves `type` out; only a call of another declared type (a custom tool) is not a function call.
    const type = (call as { type?: string }).type;
    if ((type === undefined || type === "function") && "function" in call) {
      toolCalls.push({ id: call.id, name: call.function.name, args: call.function.arguments });
    }
  }
  const refusal = message?.content == null && message?.refusal ? message.refusal : undefined;
  return {
    text: message?.content ?? refusal ?? "",
    reasoning: reasoningOf(message),
    toolCalls,
    finishReason: refusal === undefined ? mapOpenAIFinishReason(choice?.finish_reason) : "content-filter",
    usage: mapOpenAIUsage(completion.usage),
    raw: completion,
  };
}
