import type { ChatCompletion } from "openai/resources/chat/completions";
import type { ReplySource } from "../../core/errors/unreadable-reply.js";
import { unreadableReply } from "../../core/errors/unreadable-reply.js";
import type { ProviderOutput, ProviderToolCall } from "../../core/output.js";
import { isRecord, optionalArray, optionalRecord, optionalRecords, optionalString } from "../../core/reply-fields.js";
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
 * arguments as the raw string, or the object some servers send; the base class parses and repairs
 * them). A refusal is the text, with finish reason `content-filter`. `raw` is the SDK's response, as
 * it came. Read defensively: a field of the wrong shape is an `unreadableReply` ProviderError naming it.
 */
export function mapOpenAIResponse(completion: ChatCompletion, source: ReplySource): ProviderOutput {
  const choices = optionalArray(completion.choices, "choices", source) ?? [];
  const choice = optionalRecord(choices[0], "choices[0]", source);
  const message = optionalRecord(choice?.message, "choices[0].message", source);
  const toolCalls: ProviderToolCall[] = [];
  const given = optionalRecords(message?.tool_calls, "choices[0].message.tool_calls", source) ?? [];
  given.forEach((call, index) => {
    const path = `choices[0].message.tool_calls[${index}]`;
    // Mistral's API leaves `type` out; only a call of another declared type (a custom tool) is not a function call.
    const type = optionalString(call.type, `${path}.type`, source);
    if (type !== undefined && type !== "function") return;
    const called = optionalRecord(call.function, `${path}.function`, source);
    if (!called) throw unreadableReply(source, `${path}.function`, "an object", call.function);
    toolCalls.push({
      id: optionalString(call.id, `${path}.id`, source),
      name: optionalString(called.name, `${path}.function.name`, source) ?? "",
      args: argumentsOf(called.arguments, `${path}.function.arguments`, source),
      ...thoughtSignatureOf(call),
    });
  });
  // Gemini's OpenAI-compatible endpoint (2.5) put the signature on the message: it belongs to the first call.
  const messageSignature = message ? thoughtSignatureOf(message).signature : undefined;
  if (messageSignature && toolCalls[0] && toolCalls[0].signature === undefined)
    toolCalls[0].signature = messageSignature;
  const content = optionalString(message?.content, "choices[0].message.content", source);
  const refusalText = optionalString(message?.refusal, "choices[0].message.refusal", source);
  const refusal = content === undefined && refusalText ? refusalText : undefined;
  const finishReason = optionalString(choice?.finish_reason, "choices[0].finish_reason", source);
  return {
    text: content ?? refusal ?? "",
    reasoning: reasoningOf(message),
    toolCalls,
    finishReason: refusal === undefined ? mapOpenAIFinishReason(finishReason) : "content-filter",
    usage: mapOpenAIUsage(completion.usage),
    raw: completion,
  };
}

/** A call's arguments: the JSON text, or the object some servers send; absent is no arguments. */
export function argumentsOf(value: unknown, path: string, source: ReplySource): string | Record<string, unknown> {
  if (value === null || value === undefined) return "";
  if (typeof value === "string" || isRecord(value)) return value;
  throw unreadableReply(source, path, "a JSON string", value);
}

/**
 * A tool call's Gemini thought signature (`extra_content.google.thought_signature`, as Gemini's
 * OpenAI-compatible endpoint sends it), kept on the call to be sent back with it.
 */
export function thoughtSignatureOf(call: Record<string, unknown>): { signature?: string } {
  const extra = call.extra_content as { google?: { thought_signature?: unknown } } | null | undefined;
  const signature = typeof extra === "object" && extra !== null ? extra.google?.thought_signature : undefined;
  return typeof signature === "string" && signature !== "" ? { signature } : {};
}
