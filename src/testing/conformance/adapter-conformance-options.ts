import type { ChatModel } from "../../core/model/chat-model.js";
import type { ChatModelOptions } from "../../core/model/chat-model-options.js";
import type { FinishReason } from "../../core/output.js";
import type { ProviderErrorReason } from "../../core/errors/provider-error.js";
import type { ToolDefinition } from "../../core/tool.js";
import type { Usage } from "../../core/usage.js";
import type { ConformanceCaseId } from "./conformance-cases.js";
import type { ReplayedRequest, ReplayResponse, ReplayServer } from "./replay-server.js";

/** A test framework's `it`: called with a name and a body; `it.skip` reports a case as skipped. */
export interface ConformanceIt {
  (name: string, body: () => Promise<void>): void;
  /**
   * Reports a test as skipped (vitest, jest, mocha and node:test all have `it.skip`). Without it,
   * a skipped case is defined as a test that does nothing, named `[skipped] … — <reason>`.
   */
  skip?: (name: string, body: () => Promise<void>) => void;
}

/** The `describe`/`it` of any test framework (vitest, jest, mocha, node:test's `describe`/`it`). */
export interface ConformanceTestAPI {
  describe(name: string, body: () => void): void;
  it: ConformanceIt;
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
  /**
   * The provider's id. Required unless the adapter skips `"tool-call-ids"` (a provider without
   * ids, whose calls get keelson's generated `call_…` ids).
   */
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

export interface AdapterConformanceOptions<S extends ReplayServer = ReplayServer> {
  /** The suite's name, e.g. "OpenAIChatModel". */
  name: string;
  /**
   * Starts the server a test's requests go to; one per test, closed after it. Pass
   * `() => startReplayServer({ protocol: "http2" })` for a client that speaks HTTP/2, or your own
   * `ReplayServer` for another transport (it must honour the `"hold"` and `"drop"` steps and a
   * response's `stall`, or skip the cases that use them).
   * @default () => startReplayServer() (HTTP/1.1 on 127.0.0.1)
   */
  server?: (() => Promise<S>) | undefined;
  /**
   * The adapter under test, sending every request to `baseURL` (the server's `url`), with the
   * common options passed through (the suite sets `retry`, `toolChoiceSupport`, …). `server` is the
   * test's server, for transports that need more than its URL.
   */
  createModel(baseURL: string, options: ChatModelOptions, server: S): ChatModel;
  /** The provider's reply whose text is `text`, for `create` and for `createStream`. */
  textReply(text: string): ConformanceReply;
  /** Reads a request body the adapter sent. */
  readRequest(request: ReplayedRequest): WireSummary;
  /**
   * A retryable provider error that asks for no wait (e.g. a 429 with `retry-after: 0`). The retry
   * cases run with it and with a dropped connection; without it, with a dropped connection only.
   */
  retryableError?: ReplayResponse | undefined;
  /** @default ["create", "stream"] */
  modes?: readonly ("create" | "stream")[] | undefined;
  /**
   * Cases this adapter cannot have, each with the reason, e.g. `{ "streamed-tool-call-args":
   * "tool calls arrive whole in one chunk" }`. They are reported as skipped (`it.skip`) with the
   * reason, never run and passed; a skipped case that also has recordings is a `TypeError`.
   * Scenario cases without recordings in this run are reported as skipped too.
   */
  skip?: Partial<Record<ConformanceCaseId, string>> | undefined;
  /**
   * The recordings to replay. Scenarios that hold a list take one case per recording, since the
   * recordings of `create` and of `createStream` are often different conversations.
   */
  scenarios: {
    text?: {
      name: string;
      reply: ConformanceReply;
      expected: { text: string; usage?: Partial<Usage>; finishReason?: FinishReason };
    }[];
    toolCall?: { name: string; reply: ConformanceReply; tools: ToolDefinition[]; expected: ExpectedToolCall }[];
    /** Each case is one reply with several tool calls (recordings of create and stream often differ). */
    parallelToolCalls?: {
      name: string;
      reply: ConformanceReply;
      tools: ToolDefinition[];
      expected: ExpectedToolCall[];
    }[];
    /** A stream whose one tool call's arguments arrive in several deltas. */
    streamedToolCallArgs?: { reply: ReplayResponse; tools: ToolDefinition[]; expected: ExpectedToolCall };
    finishReasons?: { name: string; reply: ConformanceReply; tools?: ToolDefinition[]; expected: FinishReason }[];
    errors?: ConformanceErrorCase[];
  };
}
