import type { ChatModelCache } from "./cache/chat-model-cache.js";
import type { Message } from "./messages.js";
import type { JSONSchema } from "./schema/json-schema.js";
import type { SchemaInput } from "./schema/schema-input.js";
import type { Tool, ToolDefinition } from "./tool.js";

/** Sampling and length parameters. Unset ones are not sent. */
export interface ChatModelParameters {
  temperature?: number;
  maxTokens?: number;
  topP?: number;
  topK?: number;
  stop?: string[];
  seed?: number;
  frequencyPenalty?: number;
  presencePenalty?: number;
  reasoningEffort?: "minimal" | "low" | "medium" | "high";
}

/** One specific tool the model must call (the "single" mode). */
export type SingleToolChoice = Tool | ToolDefinition | { type: "tool"; name: string };

export type ToolChoice = "auto" | "none" | "required" | SingleToolChoice;

/** A JSON-schema structured output (optionally named), or free-form JSON. */
export type ResponseFormat = SchemaInput | { type: "json" } | { type: "json-schema"; schema: SchemaInput; name?: string };

export interface ChatModelInput {
  /** The conversation, at least one message. Never mutated. */
  messages: Message[];
  tools?: (Tool | ToolDefinition)[];
  /** Default `"auto"` when tools are given. */
  toolChoice?: ToolChoice;
  responseFormat?: ResponseFormat;
  /** Whether several tool calls are allowed in one reply. @default the model's `allowParallelToolCalls` */
  parallelToolCalls?: boolean;
  /**
   * The tool a reply without a tool name is read as a call to. @default the forced tool in single mode
   */
  fallbackTool?: string | Tool | ToolDefinition;
  parameters?: ChatModelParameters;
  /** Transport retries for this call. @default the model's `retry.maxRetries` */
  maxRetries?: number;
  signal?: AbortSignal;
  /** Ends the call with a `TimeoutError` after this many milliseconds (all attempts included). */
  timeout?: number;
  /** `false` bypasses the cache for this call. @default true */
  cache?: boolean;
  /** Passed to the adapter untouched (provider-specific request fields). */
  providerOptions?: Record<string, unknown>;
}

/** A tool as it reaches an adapter. */
export interface ProviderTool {
  name: string;
  description?: string;
  parameters: JSONSchema;
}

export type ProviderToolChoice = "auto" | "none" | "required" | { type: "tool"; name: string };

export type ProviderResponseFormat =
  | { type: "json-schema"; name: string; schema: JSONSchema; strict?: boolean }
  | { type: "json" };

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
}

/** Passed to `_create`/`_createStream` beside the input. */
export interface RunContext {
  signal: AbortSignal;
  /** 1 for the first request of a call; counts transport retries and repairs alike. */
  attempt: number;
}

export interface StructureInput<S extends SchemaInput = SchemaInput>
  extends Omit<ChatModelInput, "responseFormat" | "tools" | "toolChoice" | "fallbackTool" | "parallelToolCalls"> {
  /** The shape of the object to produce: a zod schema or a JSON Schema object. */
  schema: S;
  /** Name of the schema as sent to the provider. @default "response" */
  name?: string;
}

/** The type a schema parses to: zod's output type, or `unknown` for a JSON Schema. */
export type InferSchemaOutput<S> = S extends { _zod: { output: infer O } }
  ? O
  : S extends { _output: infer O }
    ? O
    : unknown;

export type { ChatModelCache };
