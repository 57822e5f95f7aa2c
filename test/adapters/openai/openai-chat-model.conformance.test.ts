import { describe, it } from "vitest";
import { OpenAIChatModel } from "../../../src/adapters/openai/index.js";
import type { AdapterConformanceOptions } from "../../../src/testing/index.js";
import { runAdapterConformance } from "../../../src/testing/index.js";
import {
  jsonResponse,
  openAITextReply,
  readOpenAIRequest,
  readOwnOpenAIFixture,
  sseResponse,
} from "../../support/openai-wire.js";
import { hasSharedFixtures, missingFixturesMessage, readFixture } from "../../support/shared-fixtures.js";

const weather = {
  name: "get_weather",
  inputSchema: {
    type: "object",
    properties: { city: { type: "string" }, unit: { type: "string" } },
    required: ["city"],
  },
};
const time = {
  name: "get_time",
  inputSchema: { type: "object", properties: { zone: { type: "string" } }, required: ["zone"] },
};

const pathTool = (name: string) => ({
  name,
  inputSchema: { type: "object", properties: { path: { type: "string" } }, required: ["path"] },
});
const emptyTool = (name: string) => ({ name, inputSchema: { type: "object", properties: {} } });

const common: Omit<AdapterConformanceOptions, "name" | "scenarios"> = {
  createModel: (baseURL, options) =>
    // A custom baseURL is a gateway to the adapter: keep OpenAI's own support set.
    new OpenAIChatModel("gpt-4o-mini", {
      baseURL,
      apiKey: "sk-test-SENTINEL-123",
      toolChoiceSupport: ["auto", "none", "required", "single"],
      ...options,
    }),
  textReply: openAITextReply,
  readRequest: readOpenAIRequest,
  retryableError: jsonResponse(readOwnOpenAIFixture("error-429-rate-limit.json"), 429, { "retry-after": "0" }),
};

const own = (name: string) => jsonResponse(readOwnOpenAIFixture(name));

// Our own documented-format fixtures: meaningful on a bare clone.
runAdapterConformance(
  { describe, it },
  {
    ...common,
    name: "OpenAIChatModel conformance (own fixtures)",
    scenarios: {
      text: [
        {
          name: "cached and reasoning tokens",
          reply: { create: own("chat-text-reasoning-usage.json") },
          expected: {
            text: "Hello! How can I assist you today?",
            usage: {
              inputTokens: 1200,
              outputTokens: 140,
              totalTokens: 1340,
              cachedInputTokens: 64,
              reasoningTokens: 128,
            },
          },
        },
        {
          name: "deltas and the include_usage chunk",
          reply: { stream: sseResponse(readOwnOpenAIFixture("chat-text.sse")) },
          expected: {
            text: "Hello! How can I help?",
            usage: { inputTokens: 19, outputTokens: 10, totalTokens: 29, cachedInputTokens: 0 },
          },
        },
      ],
      toolCall: [
        {
          name: "get_weather",
          reply: { create: own("chat-one-tool-call.json") },
          tools: [weather],
          expected: { name: "get_weather", args: { city: "Boston", unit: "f" }, id: "call_own_one" },
        },
      ],
      parallelToolCalls: [
        {
          name: "weather and time",
          reply: {
            create: own("chat-two-tool-calls.json"),
            stream: sseResponse(readOwnOpenAIFixture("chat-two-tool-calls.sse")),
          },
          tools: [weather, time],
          expected: [
            { name: "get_weather", args: { city: "Paris" }, id: "call_own_a" },
            { name: "get_time", args: { zone: "CET" }, id: "call_own_b" },
          ],
        },
      ],
      streamedToolCallArgs: {
        reply: sseResponse(readOwnOpenAIFixture("chat-tool-call-split.sse")),
        tools: [weather],
        expected: { name: "get_weather", args: { city: "Paris", unit: "c" }, id: "call_own_split" },
      },
      finishReasons: [
        { name: "length", reply: { create: own("chat-length.json") }, expected: "length" },
        { name: "content_filter", reply: { create: own("chat-content-filter.json") }, expected: "content-filter" },
        {
          name: "tool_calls",
          reply: { create: own("chat-one-tool-call.json") },
          tools: [weather],
          expected: "tool-calls",
        },
      ],
      errors: [
        {
          name: "401 invalid_api_key",
          reply: jsonResponse(readOwnOpenAIFixture("error-401-invalid-api-key.json"), 401),
          expected: { statusCode: 401, reason: "authentication", isRetryable: false, code: "invalid_api_key" },
        },
        {
          name: "429 rate_limit_exceeded",
          reply: jsonResponse(readOwnOpenAIFixture("error-429-rate-limit.json"), 429),
          expected: { statusCode: 429, reason: "rate-limit", isRetryable: true },
        },
        {
          name: "429 insufficient_quota",
          reply: jsonResponse(readOwnOpenAIFixture("error-429-insufficient-quota.json"), 429),
          expected: { statusCode: 429, reason: "rate-limit", isRetryable: false, code: "insufficient_quota" },
        },
        {
          name: "500 server_error",
          reply: jsonResponse(readOwnOpenAIFixture("error-500-server.json"), 500),
          expected: { statusCode: 500, reason: "server", isRetryable: true },
        },
      ],
    },
  },
);

// What chat-stream-text.sse carries, read off the recording by hand.
const streamedText = "The capital of Mexico is Mexico City.";
const streamedUsage = { inputTokens: 14, outputTokens: 8, totalTokens: 22, cachedInputTokens: 0, reasoningTokens: 0 };

// The recorded OpenAI traffic in ../shared/fixtures/openai, replayed byte for byte.
describe.skipIf(!hasSharedFixtures)(hasSharedFixtures ? "recorded fixtures" : missingFixturesMessage, () => {
  if (!hasSharedFixtures) return;
  const recorded = (name: string, status = 200) => jsonResponse(readFixture(`openai/${name}`), status);
  const sse = (name: string) => sseResponse(readFixture(`openai/${name}`));
  runAdapterConformance(
    { describe, it },
    {
      ...common,
      name: "OpenAIChatModel conformance (recorded)",
      scenarios: {
        text: [
          {
            name: "gpt-4o",
            reply: { create: recorded("chat-nonstream-text.json") },
            expected: {
              text: "The capital of France is Paris.",
              usage: { inputTokens: 24, outputTokens: 8, totalTokens: 32, cachedInputTokens: 0, reasoningTokens: 0 },
            },
          },
          {
            name: "SSE with obfuscation and the usage chunk",
            reply: { stream: sse("chat-stream-text.sse") },
            expected: { text: streamedText, usage: streamedUsage },
          },
        ],
        toolCall: [
          {
            name: "get_capital",
            reply: { create: recorded("chat-nonstream-one-tool-call.json") },
            tools: [
              {
                name: "get_capital",
                inputSchema: { type: "object", properties: { country: { type: "string" } }, required: ["country"] },
              },
            ],
            expected: { name: "get_capital", args: { country: "England" }, id: "call_SkEQ3ZGSJC8m6AvaIGNuuKdm" },
          },
        ],
        parallelToolCalls: [
          {
            name: "delete_file and create_file",
            reply: { create: recorded("chat-nonstream-two-parallel-tool-calls.json") },
            tools: [pathTool("delete_file"), pathTool("create_file")],
            expected: [
              { name: "delete_file", args: { path: ".env" }, id: "call_jYdIdRZHxZTn5bWCq5jlMrJi" },
              { name: "create_file", args: { path: "test.txt" }, id: "call_TmlTVWQbzrXCZ4jNsCVNbNqu" },
            ],
          },
          {
            name: "get_country and get_product_name, by index",
            reply: { stream: sse("chat-stream-two-parallel-tool-calls.sse") },
            tools: [emptyTool("get_country"), emptyTool("get_product_name")],
            expected: [
              { name: "get_country", args: {}, id: "call_q2UyBRP7eXNTzAoR8lEhjc9Z" },
              { name: "get_product_name", args: {}, id: "call_b51ijcpFkDiTQG1bQzsrmtW5" },
            ],
          },
        ],
        streamedToolCallArgs: {
          reply: sse("chat-stream-tool-call-args-split-across-chunks.sse"),
          tools: [weather],
          expected: { name: "get_weather", args: { city: "Mexico City" }, id: "call_LwxJUB9KppVyogRRLQsamRJv" },
        },
        finishReasons: [
          {
            name: "stop",
            reply: { create: recorded("chat-nonstream-text.json"), stream: sse("chat-stream-text.sse") },
            expected: "stop",
          },
          {
            name: "tool_calls",
            reply: {
              create: recorded("chat-nonstream-one-tool-call.json"),
              stream: sse("chat-stream-tool-call-args-split-across-chunks.sse"),
            },
            tools: [
              weather,
              { name: "get_capital", inputSchema: { type: "object", properties: { country: { type: "string" } } } },
            ],
            expected: "tool-calls",
          },
        ],
        errors: [
          {
            name: "404 model_not_found",
            reply: recorded("chat-error-404-model-not-found.json", 404),
            expected: { statusCode: 404, reason: "not-found", isRetryable: false, code: "model_not_found" },
          },
          {
            name: "400 unsupported_value",
            reply: recorded("chat-error-400-unsupported-value.json", 400),
            expected: { statusCode: 400, reason: "invalid-request", isRetryable: false, code: "unsupported_value" },
          },
          {
            name: "400 invalid request param",
            reply: recorded("chat-error-400-invalid-request-param.json", 400),
            expected: { statusCode: 400, reason: "invalid-request", isRetryable: false },
          },
        ],
      },
    },
  );
});
