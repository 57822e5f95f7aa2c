import { describe, it } from "vitest";
import { AnthropicChatModel } from "../../../src/adapters/anthropic/index.js";
import type { ToolDefinition } from "../../../src/index.js";
import type { AdapterConformanceOptions } from "../../../src/testing/index.js";
import { runAdapterConformance } from "../../../src/testing/index.js";
import {
  anthropicError,
  anthropicSSE,
  anthropicTextReply,
  readAnthropicRequest,
  readOwnAnthropicFixture,
} from "../../support/anthropic-wire.js";
import { jsonResponse, sseResponse } from "../../support/openai-wire.js";
import { hasSharedFixtures, missingFixturesMessage, readFixture } from "../../support/shared-fixtures.js";

const lookupIncident: ToolDefinition = {
  name: "lookup_incident",
  inputSchema: { type: "object", properties: { incident_id: { type: "string" } }, required: ["incident_id"] },
};
const pageOnCall: ToolDefinition = {
  name: "page_on_call",
  inputSchema: { type: "object", properties: { team: { type: "string" } }, required: ["team"] },
};

const common: Omit<AdapterConformanceOptions, "name" | "scenarios"> = {
  // structured output on, so that the response-format rung is Anthropic's own output_config.format.
  createModel: (baseURL, options) =>
    new AnthropicChatModel("claude-sonnet-4-5", {
      baseURL,
      apiKey: "sk-ant-test-SENTINEL-123",
      supportsStructuredOutput: true,
      ...options,
    }),
  textReply: anthropicTextReply,
  readRequest: readAnthropicRequest,
  retryableError: anthropicError(429, "rate_limit_error", "Number of request tokens has exceeded your limit", {
    "retry-after": "0",
  }),
};

const own = (name: string) => jsonResponse(readOwnAnthropicFixture(name));
const ownStream = (name: string) => anthropicSSE(readOwnAnthropicFixture(name));

// Our own documented-format fixtures: meaningful on a bare clone.
runAdapterConformance(
  { describe, it },
  {
    ...common,
    name: "AnthropicChatModel conformance (own fixtures)",
    scenarios: {
      text: [
        {
          name: "cache reads and writes in the input count",
          reply: { create: own("message-text-cache-usage.json"), stream: ownStream("stream-text-cache-usage.ndjson") },
          expected: {
            text: "INC-001 is an auth-api outage.",
            usage: {
              inputTokens: 2312,
              outputTokens: 9,
              totalTokens: 2321,
              cachedInputTokens: 2000,
              cacheWriteInputTokens: 300,
            },
            finishReason: "stop",
          },
        },
      ],
      toolCall: [
        {
          name: "lookup_incident",
          reply: { create: own("message-tool-use.json") },
          tools: [lookupIncident],
          expected: { name: "lookup_incident", args: { incident_id: "INC-001" }, id: "toolu_own_one" },
        },
        {
          name: "lookup_incident, streamed",
          reply: { stream: ownStream("stream-tool-use-split.ndjson") },
          tools: [lookupIncident],
          expected: { name: "lookup_incident", args: { incident_id: "INC-001" }, id: "toolu_own_split" },
        },
      ],
      parallelToolCalls: [
        {
          name: "lookup_incident and page_on_call",
          reply: { create: own("message-two-tool-uses.json"), stream: ownStream("stream-two-tool-uses.ndjson") },
          tools: [lookupIncident, pageOnCall],
          expected: [
            { name: "lookup_incident", args: { incident_id: "INC-001" }, id: "toolu_own_a" },
            { name: "page_on_call", args: { team: "auth" }, id: "toolu_own_b" },
          ],
        },
      ],
      streamedToolCallArgs: {
        reply: ownStream("stream-tool-use-split.ndjson"),
        tools: [lookupIncident],
        expected: { name: "lookup_incident", args: { incident_id: "INC-001" }, id: "toolu_own_split" },
      },
      finishReasons: [
        { name: "max_tokens", reply: { create: own("message-max-tokens.json") }, expected: "length" },
        { name: "stop_sequence", reply: { create: own("message-stop-sequence.json") }, expected: "stop" },
        { name: "refusal", reply: { create: own("message-refusal.json") }, expected: "content-filter" },
        {
          name: "tool_use",
          reply: { create: own("message-tool-use.json"), stream: ownStream("stream-tool-use-split.ndjson") },
          tools: [lookupIncident],
          expected: "tool-calls",
        },
      ],
      errors: [
        {
          name: "401 authentication_error",
          reply: anthropicError(401, "authentication_error", "invalid x-api-key"),
          expected: { statusCode: 401, reason: "authentication", isRetryable: false, code: "authentication_error" },
        },
        {
          name: "429 rate_limit_error",
          reply: anthropicError(429, "rate_limit_error", "Number of request tokens has exceeded your limit"),
          expected: { statusCode: 429, reason: "rate-limit", isRetryable: true, code: "rate_limit_error" },
        },
        {
          name: "529 overloaded_error",
          reply: anthropicError(529, "overloaded_error", "Overloaded"),
          expected: { statusCode: 529, reason: "server", isRetryable: true, code: "overloaded_error" },
        },
        {
          name: "400 invalid_request_error",
          reply: anthropicError(400, "invalid_request_error", "max_tokens: Field required"),
          expected: { statusCode: 400, reason: "invalid-request", isRetryable: false, code: "invalid_request_error" },
        },
      ],
    },
  },
);

const weather = (name: string, field: string): ToolDefinition => ({
  name,
  inputSchema: { type: "object", properties: { [field]: { type: "string" } }, required: [field] },
});

// The recorded Anthropic traffic in ../shared/fixtures/anthropic, replayed as recorded.
describe.skipIf(!hasSharedFixtures)(hasSharedFixtures ? "recorded fixtures" : missingFixturesMessage, () => {
  if (!hasSharedFixtures) return;
  const recorded = (name: string, status = 200, headers: Record<string, string> = {}) =>
    jsonResponse(readFixture(`anthropic/${name}`), status, headers);
  const chunks = (name: string) => anthropicSSE(readFixture(`anthropic/${name}`));
  // The 529's recorded headers, less the framing ones the replay server sets itself.
  const {
    "content-length": _length,
    connection: _connection,
    ...overloadedHeaders
  } = JSON.parse(
    readFixture("anthropic/messages-error-529-overloaded.issue-anthropic-sdk-typescript-616.headers.json"),
  ) as Record<string, string>;
  runAdapterConformance(
    { describe, it },
    {
      ...common,
      name: "AnthropicChatModel conformance (recorded)",
      scenarios: {
        text: [
          {
            name: "claude-3-opus",
            reply: { create: recorded("messages-nonstream-text.json") },
            expected: {
              text: "The capital of France is Paris.",
              usage: { inputTokens: 20, outputTokens: 10, totalTokens: 30, cachedInputTokens: 0 },
            },
          },
          {
            name: "cache read and write tokens",
            reply: { create: recorded("messages-nonstream-cache-read-and-write-tokens.json") },
            expected: {
              text: JSON.parse(readFixture("anthropic/messages-nonstream-cache-read-and-write-tokens.json")).content[0]
                .text,
              usage: {
                inputTokens: 3 + 418 + 1111,
                outputTokens: 33,
                totalTokens: 3 + 418 + 1111 + 33,
                cachedInputTokens: 1111,
                cacheWriteInputTokens: 418,
              },
            },
          },
          {
            name: "streamed text",
            reply: { stream: chunks("messages-stream-text.chunks.ndjson") },
            expected: {
              text: "Hello! I'm doing well, thank you for asking. How are you doing today? Is there anything I can help you with?",
              usage: { inputTokens: 12, outputTokens: 30, totalTokens: 42, cachedInputTokens: 0 },
            },
          },
        ],
        toolCall: [
          {
            name: "tool_choice any",
            reply: { create: recorded("messages-nonstream-tool-choice-any.json") },
            tools: [weather("get_weather", "city")],
            expected: { name: "get_weather", args: { city: "Paris" }, id: "toolu_01Dxp8hdnkA8bsrVJJ8LB9q1" },
          },
          {
            name: "weather",
            reply: { create: recorded("messages-nonstream-one-tool-use-weather.json") },
            tools: [weather("weather", "location")],
            expected: { name: "weather", args: { location: "San Francisco" }, id: "toolu_01PQjhxo3eirCdKNvCJrKc8f" },
          },
          {
            name: "streamed, no arguments",
            reply: { stream: chunks("messages-stream-text-then-tool-use-no-input.chunks.ndjson") },
            tools: [{ name: "updateIssueList", inputSchema: { type: "object", properties: {} } }],
            expected: { name: "updateIssueList", args: {}, id: "toolu_01QE1WLsSVp5hy5Q3GmGTmjP" },
          },
        ],
        parallelToolCalls: [
          {
            name: "four retrieve_entity_info calls",
            reply: { create: recorded("messages-nonstream-four-parallel-tool-use.0.json") },
            tools: [weather("retrieve_entity_info", "name")],
            expected: [
              { name: "retrieve_entity_info", args: { name: "Alice" }, id: "toolu_0167cfEnoQaPviGdVXA95zcu" },
              { name: "retrieve_entity_info", args: { name: "Bob" }, id: "toolu_01EEe2V5HD1Ac4rKiUR4HD2T" },
              { name: "retrieve_entity_info", args: { name: "Charlie" }, id: "toolu_01XFyAjstT3966qvRynZyVPo" },
              { name: "retrieve_entity_info", args: { name: "Daisy" }, id: "toolu_013mnQZbgtK2oe3Mo3XKJsx3" },
            ],
          },
        ],
        streamedToolCallArgs: {
          reply: chunks("messages-stream-tool-use-input-split.chunks.ndjson"),
          tools: [weather("weather", "location")],
          expected: { name: "weather", args: { location: "San Francisco" }, id: "toolu_019Zvehfe1XQWweT1pm7okyt" },
        },
        finishReasons: [
          {
            name: "end_turn",
            reply: {
              create: recorded("messages-nonstream-text.json"),
              stream: sseResponse(readFixture("anthropic/messages-stream-thinking-then-text.sse")),
            },
            expected: "stop",
          },
          {
            name: "tool_use",
            reply: {
              create: recorded("messages-nonstream-tool-choice-tool.json"),
              stream: chunks("messages-stream-tool-use-input-split.chunks.ndjson"),
            },
            tools: [weather("get_weather", "city"), weather("weather", "location")],
            expected: "tool-calls",
          },
        ],
        errors: [
          {
            name: "400 invalid_request_error",
            reply: recorded("messages-error-400-invalid-request.json", 400),
            expected: { statusCode: 400, reason: "invalid-request", isRetryable: false, code: "invalid_request_error" },
          },
          {
            name: "404 not_found_error",
            reply: recorded("messages-error-404-not-found.json", 404),
            expected: { statusCode: 404, reason: "not-found", isRetryable: false, code: "not_found_error" },
          },
          {
            name: "401 authentication_error (as posted)",
            reply: recorded("messages-error-401-authentication.issue-perplexica-303.json", 401),
            expected: { statusCode: 401, reason: "authentication", isRetryable: false, code: "authentication_error" },
          },
          {
            name: "429 rate_limit_error (as posted)",
            reply: recorded("messages-error-429-rate-limit.issue-cline-252.json", 429),
            expected: { statusCode: 429, reason: "rate-limit", isRetryable: true, code: "rate_limit_error" },
          },
          {
            name: "529 overloaded_error with its recorded headers",
            reply: recorded(
              "messages-error-529-overloaded.issue-anthropic-sdk-typescript-616.json",
              529,
              overloadedHeaders,
            ),
            expected: { statusCode: 529, reason: "server", isRetryable: true, code: "overloaded_error" },
          },
        ],
      },
    },
  );
});
