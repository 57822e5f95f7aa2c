import type { CallTimeout } from "./budgets/call-timeout.js";
import type { ToolChoiceRung } from "./output.js";
import type { ChatModelCache } from "./cache/chat-model-cache.js";
import type { Message } from "./messages.js";
import type { JSONSchema } from "./schema/json-schema.js";
import type { SchemaInput } from "./schema/schema-input.js";
import type { AnyTool, Tool, ToolDefinition } from "./tool.js";
import type { PromptCacheMode } from "./prompt-cache/prompt-cache-mode.js";

/** Sampling and length parameters. Unset ones are not sent. */
export interface ChatModelParameters {
  /** Sampling temperature. @default the provider's */
  temperature?: number | undefined;
  /** Longest reply, in tokens. @default the provider's */
  maxTokens?: number | undefined;
  /** Nucleus sampling. @default the provider's */
  topP?: number | undefined;
  /** Top-k sampling, where the provider has it (not sent where it has not). @default the provider's */
  topK?: number | undefined;
  /** Sequences that end the reply. @default none */
  stop?: string[] | undefined;
  /** Seed for reproducible sampling, where the provider has one. @default none */
  seed?: number | undefined;
  /** @default the provider's */
  frequencyPenalty?: number | undefined;
  /** @default the provider's */
  presencePenalty?: number | undefined;
  /** How hard a reasoning model thinks. @default the provider's */
  reasoningEffort?: "minimal" | "low" | "medium" | "high" | undefined;
}

/** One specific tool the model must call (the "single" mode). */
export type SingleToolChoice = Tool | ToolDefinition | { type: "tool"; name: string };

/** Whether and which tool the model must call: any, none, at least one, or this one. */
export type ToolChoice = "auto" | "none" | "required" | SingleToolChoice;

/** A JSON-schema structured output (optionally named), or free-form JSON. */
export type ResponseFormat =
  SchemaInput | { type: "json" } | { type: "json-schema"; schema: SchemaInput; name?: string };

/**
 * One call to `create` or `createStream`. `Tools` is the type of the tools given: typed tools (from
 * `defineTool`) make `output.toolCalls` a union discriminated by the tool's name.
 */
export interface ChatModelInput<
  Tools extends readonly AnyTool[] = readonly AnyTool[],
  Format extends ResponseFormat = ResponseFormat,
> {
  /** The conversation, at least one message. Never mutated. */
  messages: Message[];
  /** The tools the model may call (from `defineTool`, or plain definitions). @default none */
  tools?: Tools | undefined;
  /** Default `"auto"` when tools are given. */
  toolChoice?: ToolChoice | undefined;
  /**
   * Structured output: a zod or JSON schema (the reply is parsed and validated into `output.object`),
   * or `{ type: "json" }` for any JSON. With tools under toolChoice "auto", the reply is either tool
   * calls or the object. @default none (free text)
   */
  responseFormat?: Format | undefined;
  /** Whether several tool calls are allowed in one reply. @default the model's `allowParallelToolCalls` */
  parallelToolCalls?: boolean | undefined;
  /**
   * The tool a reply without a tool name is read as a call to. @default the forced tool in single mode
   */
  fallbackTool?: string | Tool | ToolDefinition | undefined;
  /** Sampling and length parameters of this call, merged over the model's `parameters`. @default the model's `parameters` */
  parameters?: ChatModelParameters | undefined;
  /** Transport retries for this call. @default the model's `retry.maxRetries` */
  maxRetries?: number | undefined;
  /** Aborts the call (the request in flight and any retry wait); it then rejects with an `AbortError` (the reason as `cause`, or the reason itself when it is a DOMException). @default none */
  signal?: AbortSignal | undefined;
  /**
   * A number ends the call with a `TimeoutError` after this many milliseconds (all attempts included;
   * `Infinity` is no bound; a `Retry-After` longer than what is left fails the call at once), as
   * `{ totalMs }` does; `firstChunkMs` and `chunkMs` bound its silences (see `StallTimeout`). Replaces
   * the model's `timeout` whole. @default the model's `timeout` (none)
   */
  timeout?: CallTimeout | undefined;
  /** `false` bypasses the cache for this call. @default true */
  cache?: boolean | undefined;
  /** Prompt-cache breakpoints for this call (see `PromptCacheMode`). @default the model's `promptCache` ("off") */
  promptCache?: PromptCacheMode | undefined;
  /** Passed to the adapter untouched (provider-specific request fields). @default none */
  providerOptions?: Record<string, unknown> | undefined;
}

/** A tool as it reaches an adapter. */
export interface ProviderTool {
  name: string;
  description?: string;
  parameters: JSONSchema;
}

export type ProviderToolChoice = "auto" | "none" | "required" | { type: "tool"; name: string };

export type ProviderResponseFormat =
  { type: "json-schema"; name: string; schema: JSONSchema; strict?: boolean } | { type: "json" };

/** The call as it reaches an adapter, after the base class rewrote it. Absent means "not sent". */
export interface ProviderInput {
  messages: Message[];
  tools?: ProviderTool[];
  toolChoice?: ProviderToolChoice;
  responseFormat?: ProviderResponseFormat;
  parallelToolCalls?: boolean;
  parameters: ChatModelParameters;
  signal: AbortSignal;
  providerOptions?: Record<string, unknown>;
  /** Where keelson places prompt-cache breakpoints (`promptCache: "auto"`; see `placeCachePoints`). Absent: none. */
  promptCache?: "auto";
}

/** Passed to `_create`/`_createStream` beside the input. */
export interface RunContext {
  signal: AbortSignal;
  /** 1 for the first request of a call; counts transport retries and repairs alike. */
  attempt: number;
  /** The call this request belongs to: its number (as its events carry it) and the caller's input. */
  call?: { readonly callId: number; readonly input: ChatModelInput };
  /** The tool_choice rung the call is on (the ladder's outcome). */
  rung?: ToolChoiceRung;
}

/** A call to `createStructure`: a `ChatModelInput` without tools, with the schema of the object to produce. */
export interface StructureInput<S extends SchemaInput = SchemaInput> extends Omit<
  ChatModelInput,
  "responseFormat" | "tools" | "toolChoice" | "fallbackTool" | "parallelToolCalls"
> {
  /** The shape of the object to produce: a zod schema or a JSON Schema object. */
  schema: S;
  /** Name of the schema as sent to the provider. @default "response" */
  name?: string | undefined;
}

/** The type a schema parses to: zod's output type, or `unknown` for a JSON Schema. */
export type InferSchemaOutput<S> = S extends { _zod: { output: infer O } }
  ? O
  : S extends { _output: infer O }
    ? O
    : unknown;

/** The object a response format parses to (`output.object`): the schema's output type, else `unknown`. */
export type InferResponseFormatOutput<F> = F extends { type: "json-schema"; schema: infer S }
  ? InferSchemaOutput<S>
  : F extends { type: "json" }
    ? unknown
    : InferSchemaOutput<F>;

export type { ChatModelCache };
