import type { RejectedParameter } from "../core/errors/provider-error.js";
import type { ProviderInput, RunContext } from "../core/input.js";
import type { FinishReason } from "../core/output.js";
import type { ChatModelChunk } from "../core/stream/chat-model-chunk.js";
import type { Usage } from "../core/usage.js";

/** Options of an answering step. */
export interface StepOptions {
  /** Token counts the step reports. @default { inputTokens: 10, outputTokens: 5 } */
  usage?: Partial<Usage> | undefined;
  /** @default "tool-calls" for a tool-call step, else "stop" */
  finishReason?: FinishReason | undefined;
  /** Reasoning text that comes with the answer. @default none */
  reasoning?: string | undefined;
  /** How the text is split when the step is streamed. @default split into words */
  chunks?: string[] | undefined;
  /** Waits this long before answering (ends at once on abort), to test timeouts and aborts. */
  delayMs?: number | undefined;
}

/** One tool call of a scripted step. */
export interface ScriptedToolCall {
  /** The tool's name. */
  name: string;
  /** An object, or a raw string exactly as a provider might send it (broken JSON included). */
  args: Record<string, unknown> | string;
  /** The provider's id of the call. @default none (keelson fills a `call_…` id and reports the repair) */
  id?: string | undefined;
}

/** A step that answers (text or tool calls). */
export type AnswerStep =
  | ({ type: "text"; text: string } & StepOptions)
  | ({ type: "tool-calls"; calls: ScriptedToolCall[]; text?: string | undefined } & StepOptions);

export type ErrorStep = { type: "error"; error: Error | ErrorSpec; delayMs?: number | undefined };
export type StreamStep = {
  type: "stream";
  chunks: ChatModelChunk[];
  error?: Error | ErrorSpec | undefined;
  delayMs?: number | undefined;
};
/** A step computed from what reached the provider. */
export type FunctionStep = (input: ProviderInput, context: RunContext) => ScriptedStep | Promise<ScriptedStep>;

/** One scripted reply: an answer, an error, a stream, or a function of the provider input. */
export type ScriptedStep = AnswerStep | ErrorStep | StreamStep | FunctionStep;

/** A provider error as an adapter would raise it. */
export interface ErrorSpec {
  statusCode: number;
  message?: string | undefined;
  headers?: Record<string, string> | undefined;
  /** The provider's error code, e.g. "insufficient_quota". */
  code?: string | undefined;
  /** Mark a 400 as refusing a tool_choice value, as adapters do, so the ladder learns. */
  rejectedToolChoice?: "auto" | "none" | "required" | "single" | undefined;
  /** Mark a 400 as refusing any part of the request keelson learns from (the response format, a parameter, …). */
  rejectedParameter?: RejectedParameter | undefined;
  isRetryable?: boolean | undefined;
}

/** The model answers with text. */
export function textStep(text: string, options: StepOptions = {}): ScriptedStep {
  return { type: "text", text, ...options };
}

/** The model calls one tool; `args` may be a raw string. */
export function toolCallStep(
  name: string,
  args: Record<string, unknown> | string,
  options: StepOptions & { id?: string } = {},
): ScriptedStep {
  const { id, ...rest } = options;
  return { type: "tool-calls", calls: [{ name, args, ...(id === undefined ? {} : { id }) }], ...rest };
}

/** The model calls several tools in one reply. */
export function toolCallsStep(calls: ScriptedToolCall[], options: StepOptions = {}): ScriptedStep {
  return { type: "tool-calls", calls, ...options };
}

/** Exact assistant text: broken JSON, a `<tool_call>` tag, a fenced block. */
export function rawStep(text: string, options: StepOptions = {}): ScriptedStep {
  return { type: "text", text, ...options };
}

/** The provider fails: an Error as is, or `{ statusCode, message?, headers? }` as the ProviderError an adapter raises. */
export function errorStep(error: Error | ErrorSpec, options: { delayMs?: number | undefined } = {}): ScriptedStep {
  return { type: "error", error, ...options };
}

/** A streamed reply given chunk by chunk; `error` is thrown after the chunks (a stream that breaks). */
export function streamStep(
  chunks: (ChatModelChunk | string)[],
  options: { error?: Error | ErrorSpec | undefined; delayMs?: number | undefined } = {},
): ScriptedStep {
  return {
    type: "stream",
    chunks: chunks.map((chunk) => (typeof chunk === "string" ? { type: "text-delta", text: chunk } : chunk)),
    ...options,
  };
}
