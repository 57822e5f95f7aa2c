import type { AssistantMessage, ReasoningPart, ToolCall } from "./messages.js";
import type { Usage } from "./usage.js";

export type FinishReason = "stop" | "length" | "tool-calls" | "content-filter" | "error" | "other";

/** Which rung of the tool_choice ladder a call ended on. */
export type ToolChoiceRung = "native" | "emulated" | "response-format" | "prompt" | "rejected";

export type RepairKind =
  | "missing-id"
  | "duplicate-id"
  | "json-repaired"
  | "double-encoded"
  | "stripped-wrapper"
  | "empty-args"
  | "text-tool-call"
  | "tool-name"
  | "parallel-calls-dropped";

/** One repair keelson applied to the model's output, so nothing happens silently. */
export interface Repair {
  kind: RepairKind;
  /** What was repaired, for a human. */
  detail: string;
  toolName?: string;
}

/** One request to the provider within a call (output repairs re-ask; transport retries are not counted here). */
export interface Attempt {
  usage: Usage;
  finishReason: FinishReason;
  /** Why this attempt's output was rejected and re-asked, when it was. */
  rejected?: string;
}

/** Which model a call went to (a `withFallbacks` model answers with one of its members). */
export interface ModelRef {
  providerId: string;
  modelId: string;
}

export interface ChatModelOutputMeta {
  toolChoice: ToolChoiceRung;
  repairs: Repair[];
  attempts: Attempt[];
  cacheHit: boolean;
  /** The model that answered: the model called, or the member of a `withFallbacks` model that did. */
  model: ModelRef;
}

/**
 * What a call returns. `Call` is the type of its tool calls: given typed tools, a union discriminated
 * by `name`; `Object` the type of `object`, from the response format's schema.
 */
export interface ChatModelOutput<Call extends ToolCall<string, unknown> = ToolCall, Object = unknown> {
  /** The whole assistant message (text, reasoning and tool calls), ready to append to the history. */
  message: AssistantMessage;
  text: string;
  toolCalls: Call[];
  reasoning: string;
  finishReason: FinishReason;
  /** Tokens of the whole call: every attempt summed (each one is in `meta.attempts`). */
  usage: Usage;
  /** The provider's response of the last attempt, as it sent it. */
  raw: unknown;
  meta: ChatModelOutputMeta;
  /**
   * The parsed and validated object, when the call asked for a response format (with tools: when the
   * model gave the final answer rather than tool calls; `toolCalls` is then empty).
   */
  object?: Object;
}

/** A tool call as an adapter reports it: `args` may be anything the provider sent. */
export interface ProviderToolCall {
  id?: string | undefined;
  name: string;
  args: unknown;
  /** The provider's signature of the call, kept on the `ToolCall` (Gemini's `thoughtSignature`). */
  signature?: string | undefined;
}

/**
 * What an adapter's `_create` returns. A full `ChatModelOutput` also fits; the base class builds
 * the message, repairs and validates the tool calls, and fills `meta`.
 */
export interface ProviderOutput {
  text?: string | undefined;
  reasoning?: string | undefined;
  toolCalls?: ProviderToolCall[] | undefined;
  finishReason?: FinishReason | undefined;
  usage?: Partial<Usage> | undefined;
  raw?: unknown;
  message?: AssistantMessage | undefined;
  /** Provider signature of the reasoning, to send back with it (Anthropic on Bedrock). */
  reasoningSignature?: string | undefined;
  /**
   * The reasoning as the provider's own blocks, each with its signature or redacted data, when one
   * part (`reasoning` with `reasoningSignature`) cannot carry it: the message keeps them apart.
   */
  reasoningParts?: ReasoningPart[] | undefined;
}
