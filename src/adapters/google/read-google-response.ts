import type { GenerateContentResponse, GenerateContentResponseUsageMetadata, Part } from "@google/genai";
import type { ReasoningPart } from "../../core/messages.js";
import type { FinishReason, ProviderOutput, ProviderToolCall } from "../../core/output.js";
import type { Usage } from "../../core/usage.js";

/**
 * A `generateContent` reply → ProviderOutput. Thought parts are reasoning; every `thoughtSignature`
 * is kept: a `functionCall`'s on its tool call, a thought's on its reasoning part, and one that came
 * on an answer part as a reasoning part with no text (sent back on the turn's text). A prompt
 * blocked before any candidate (`promptFeedback.blockReason`) is `content-filter`.
 */
export function readGoogleResponse(response: GenerateContentResponse): ProviderOutput {
  let text = "";
  let reasoning = "";
  const reasoningParts: ReasoningPart[] = [];
  const toolCalls: ProviderToolCall[] = [];
  const candidate = response.candidates?.[0];
  for (const part of candidate?.content?.parts ?? []) {
    const read = readPart(part);
    if (read.text !== undefined) text += read.text;
    if (read.reasoning) {
      reasoning += read.reasoning.text;
      reasoningParts.push(read.reasoning);
    }
    if (read.toolCall) toolCalls.push(read.toolCall);
  }
  return {
    text,
    reasoning,
    toolCalls,
    finishReason: googleFinishReason(response),
    usage: readGoogleUsage(response.usageMetadata),
    raw: response,
    ...(reasoningParts.length > 0 ? { reasoningParts } : {}),
  };
}

/** What one part holds in keelson's terms. */
export interface ReadPart {
  text?: string;
  reasoning?: ReasoningPart;
  toolCall?: ProviderToolCall;
}

export function readPart(part: Part): ReadPart {
  const signature =
    typeof part.thoughtSignature === "string" && part.thoughtSignature !== "" ? part.thoughtSignature : undefined;
  if (part.functionCall) {
    const { id, name, args } = part.functionCall;
    return {
      toolCall: {
        id: typeof id === "string" && id !== "" ? id : undefined,
        name: name ?? "",
        args: args ?? {},
        ...(signature ? { signature } : {}),
      },
    };
  }
  const text = typeof part.text === "string" ? part.text : "";
  if (part.thought === true) {
    return { reasoning: { type: "reasoning", text, ...(signature ? { signature } : {}) } };
  }
  return signature ? { text, reasoning: { type: "reasoning", text: "", signature } } : { text };
}

/**
 * Gemini's usage in keelson's terms: the input is the prompt (cached tokens included) plus what the
 * tools' results added; the output counts the candidates and the thoughts, the thoughts being
 * `reasoningTokens`; `cachedContentTokenCount` is `cachedInputTokens`.
 */
export function readGoogleUsage(usage: GenerateContentResponseUsageMetadata | undefined): Partial<Usage> {
  if (!usage) return {};
  const result: Partial<Usage> = {};
  const prompt = usage.promptTokenCount;
  const toolUse = usage.toolUsePromptTokenCount ?? 0;
  if (typeof prompt === "number") result.inputTokens = prompt + toolUse;
  const candidates = usage.candidatesTokenCount;
  const thoughts = usage.thoughtsTokenCount;
  if (typeof candidates === "number" || typeof thoughts === "number") {
    result.outputTokens = (candidates ?? 0) + (thoughts ?? 0);
  }
  if (typeof thoughts === "number") result.reasoningTokens = thoughts;
  if (typeof usage.cachedContentTokenCount === "number") result.cachedInputTokens = usage.cachedContentTokenCount;
  return result;
}

const filtered = new Set([
  "SAFETY",
  "RECITATION",
  "BLOCKLIST",
  "PROHIBITED_CONTENT",
  "SPII",
  "IMAGE_SAFETY",
  "IMAGE_PROHIBITED_CONTENT",
  "IMAGE_RECITATION",
]);

/**
 * The reply's finish reason: `STOP` is `stop` (`tool-calls` when it called), `MAX_TOKENS` is
 * `length`, a safety, recitation or blocklist stop is `content-filter`, and so is a prompt blocked
 * before any candidate (`promptFeedback.blockReason`); a malformed function call is `error`.
 * undefined while a stream has not said.
 */
export function googleFinishReason(response: GenerateContentResponse): FinishReason | undefined {
  const reason = response.candidates?.[0]?.finishReason as string | undefined;
  if (reason === undefined) return response.promptFeedback?.blockReason ? "content-filter" : undefined;
  if (reason === "STOP") return "stop";
  if (reason === "MAX_TOKENS") return "length";
  if (filtered.has(reason)) return "content-filter";
  if (reason === "MALFORMED_FUNCTION_CALL" || reason === "UNEXPECTED_TOOL_CALL") return "error";
  return "other";
}
