import type { ChatModel } from "../../core/chat-model.js";
import type { ChatModelOptions } from "../../core/chat-model-options.js";
import type { FinishReason } from "../../core/output.js";
import type { ProviderErrorReason } from "../../core/errors/provider-error.js";
import type { ToolDefinition } from "../../core/tool.js";
import type { Usage } from "../../core/usage.js";
import type { ReplayedRequest, ReplayResponse } from "./replay-server.js";

/** The `describe`/`it` of any test framework (vitest, jest, mocha, node:test's `describe`/`it`). */
export interface ConformanceTestAPI {
  describe(name: string, body: () => void): void;
  it(name: string, body: () => Promise<void>): void;
}

/** A recorded answer per way of calling; a scenario runs for each one present. */
export interface ConformanceReply {
  /** The answer to a `create` request. */
  create?: ReplayResponse;
  /** The answer to a `createStream` request; it should carry its content in several pieces. */
  stream?: ReplayResponse;
}

export interface ExpectedToolCall {
  name: string;
  args: Record<string, unknown>;
  /** The provider's id, when the recording has one. */
  id?: string;
}

/** How the adapter's request body carries the tool_choice machinery, read from one request. */
export interface WireSummary {
  /** The tools sent (undefined or empty when none were). */
  tools: readonly unknown[] | undefined;
  /** The tool_choice sent (undefined when none was). */
  toolChoice: unknown;
  /** The structured output asked for (undefined when none was). */
  responseFormat: { type: "json-schema" | "json"; schema?: unknown } | undefined;
  /** The parallel-tool-calls flag, when the wire format has one. */
  parallelToolCalls?: unknown;
}

export interface ConformanceErrorCase {
  /** Used in the test name, e.g. "404 model_not_found". */
  name: string;
  reply: ReplayResponse;
  expected: { statusCode?: number; reason: ProviderErrorReason; isRetryable: boolean; code?: string };
}

export interface AdapterConformanceOptions {
  /** The suite's name, e.g. "OpenAIChatModel". */
  name: string;
  /** The adapter under test, sending every request to `baseURL` (the replay server). */
  createModel(baseURL: string, options: ChatModelOptions): ChatModel;
  /** The provider's reply whose text is `text`, for `create` and for `createStream`. */
  textReply(text: string): ConformanceReply;
  /** Reads a request body the adapter sent. */
  readRequest(request: ReplayedRequest): WireSummary;
  /** A retryable error that asks for no wait (e.g. a 429 with `retry-after: 0`). */
  retryableError?: ReplayResponse;
  /** @default ["create", "stream"] */
  modes?: readonly ("create" | "stream")[];
  /**
   * The recordings to replay. Scenarios that hold a list take one case per recording, since the
   * recordings of `create` and of `createStream` are often different conversations.
   */
  scenarios: {
    text?: { name: string; reply: ConformanceReply; expected: { text: string; usage?: Partial<Usage>; finishReason?: FinishReason } }[];
    toolCall?: { name: string; reply: ConformanceReply; tools: ToolDefinition[]; expected: ExpectedToolCall }[];
    /** Each case is one reply with several tool calls (recordings of create and stream often differ). */
    parallelToolCalls?: { name: string; reply: ConformanceReply; tools: ToolDefinition[]; expected: ExpectedToolCall[] }[];
    /** A stream whose one tool call's arguments arrive in several deltas. */
    streamedToolCallArgs?: { reply: ReplayResponse; tools: ToolDefinition[]; expected: ExpectedToolCall };
    finishReasons?: { name: string; reply: ConformanceReply; tools?: ToolDefinition[]; expected: FinishReason }[];
    errors?: ConformanceErrorCase[];
  };
}
