import { describe, it } from "vitest";
import { OpenAIResponsesChatModel } from "../../../src/adapters/openai/index.js";
import type { ToolDefinition } from "../../../src/index.js";
import type { AdapterConformanceOptions } from "../../../src/testing/index.js";
import { runAdapterConformance } from "../../../src/testing/index.js";
import { readResponsesRequest, responsesSSE, responsesTextReply } from "../../support/openai-responses-wire.js";
import { jsonResponse, readOwnOpenAIFixture, sseResponse } from "../../support/openai-wire.js";
import { hasSharedFixtures, missingFixturesMessage, readFixture } from "../../support/shared-fixtures.js";

const lookupIncident: ToolDefinition = {
  name: "lookup_incident",
  inputSchema: { type: "object", properties: { incident_id: { type: "string" } }, required: ["incident_id"] },
};
const pageOnCall: ToolDefinition = {
  name: "page_on_call",
  inputSchema: { type: "object", properties: { team: { type: "string" } }, required: ["team"] },
};
const oneString = (name: string, field: string): ToolDefinition => ({
  name,
  inputSchema: { type: "object", properties: { [field]: { type: "string" } }, required: [field] },
});

const common: Omit<AdapterConformanceOptions, "name" | "scenarios"> = {
  createModel: (baseURL, options) =>
    // A custom baseURL is a gateway to the adapter: keep OpenAI's own support set.
    new OpenAIResponsesChatModel("gpt-5-mini", {
      baseURL,
      apiKey: "sk-test-SENTINEL-789",
      toolChoiceSupport: ["auto", "none", "required", "single"],
      ...options,
    }),
  textReply: responsesTextReply,
  readRequest: readResponsesRequest,
  // The platform's error envelope, the same on /v1/responses.
  retryableError: jsonResponse(readOwnOpenAIFixture("error-429-rate-limit.json"), 429, { "retry-after": "0" }),
};

const own = (name: string) => jsonResponse(readOwnOpenAIFixture(name));
const ownStream = (name: string) => responsesSSE(readOwnOpenAIFixture(name));

runAdapterConformance(
  { describe, it },
  {
    ...common,
    name: "OpenAIResponsesChatModel conformance (own fixtures)",
    scenarios: {
      text: [
        {
          name: "cached and reasoning tokens",
          reply: { create: own("responses-text-usage.json") },
          expected: {
            text: "INC-001 is an auth-api outage.",
            usage: {
              inputTokens: 1200,
              outputTokens: 140,
              totalTokens: 1340,
              cachedInputTokens: 1024,
              reasoningTokens: 96,
            },
          },
        },
      ],
      toolCall: [
        {
          name: "lookup_incident",
          reply: { create: own("responses-tool-call.json") },
          tools: [lookupIncident],
          expected: { name: "lookup_incident", args: { incident_id: "INC-001" }, id: "call_own_one" },
        },
        {
          name: "lookup_incident, after a reasoning item",
          reply: {
            create: own("responses-reasoning-tool-call.json"),
            stream: ownStream("responses-stream-reasoning-tool-call.ndjson"),
          },
          tools: [lookupIncident],
          expected: { name: "lookup_incident", args: { incident_id: "INC-001" }, id: "call_own_r" },
        },
      ],
      parallelToolCalls: [
        {
          name: "lookup_incident and page_on_call",
          reply: { create: own("responses-two-tool-calls.json") },
          tools: [lookupIncident, pageOnCall],
          expected: [
            { name: "lookup_incident", args: { incident_id: "INC-001" }, id: "call_own_a" },
            { name: "page_on_call", args: { team: "auth" }, id: "call_own_b" },
          ],
        },
      ],
      streamedToolCallArgs: {
        reply: ownStream("responses-stream-tool-call-split.ndjson"),
        tools: [lookupIncident],
        expected: { name: "lookup_incident", args: { incident_id: "INC-001" }, id: "call_own_split" },
      },
      finishReasons: [
        {
          name: "incomplete: max_output_tokens",
          reply: {
            create: own("responses-incomplete-max-output-tokens.json"),
            stream: ownStream("responses-stream-incomplete.ndjson"),
          },
          expected: "length",
        },
        {
          name: "incomplete: content_filter",
          reply: { create: own("responses-incomplete-content-filter.json") },
          expected: "content-filter",
        },
        {
          name: "function_call",
          reply: { create: own("responses-tool-call.json") },
          tools: [lookupIncident],
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

describe.skipIf(!hasSharedFixtures)(hasSharedFixtures ? "recorded fixtures" : missingFixturesMessage, () => {
  if (!hasSharedFixtures) return;
  const recorded = (name: string, status = 200) => jsonResponse(readFixture(`openai-responses/${name}`), status);
  const sse = (name: string) => sseResponse(readFixture(`openai-responses/${name}`));
  runAdapterConformance(
    { describe, it },
    {
      ...common,
      name: "OpenAIResponsesChatModel conformance (recorded)",
      scenarios: {
        text: [
          {
            name: "gpt-4o",
            reply: { create: recorded("responses-nonstream-text.json") },
            expected: {
              text: "The capital of France is Paris.",
              usage: { inputTokens: 14, outputTokens: 8, totalTokens: 22, cachedInputTokens: 0, reasoningTokens: 0 },
            },
          },
          {
            name: "streamed output_text deltas",
            reply: { stream: sse("responses-stream-text.sse") },
            expected: {
              text: "The capital of France is Paris.",
              usage: { inputTokens: 278, outputTokens: 9, totalTokens: 287, cachedInputTokens: 0, reasoningTokens: 0 },
            },
          },
          {
            name: "cached tokens",
            reply: { create: recorded("responses-nonstream-reasoning-summary-then-cached-tokens.1.json") },
            expected: {
              text: JSON.parse(
                readFixture("openai-responses/responses-nonstream-reasoning-summary-then-cached-tokens.1.json"),
              ).output[0].content[0].text,
              usage: {
                inputTokens: 2087,
                outputTokens: 124,
                totalTokens: 2211,
                cachedInputTokens: 2048,
                reasoningTokens: 0,
              },
            },
          },
        ],
        toolCall: [
          {
            name: "get_capital",
            reply: { create: recorded("responses-nonstream-tool-call-round-trip.0.json") },
            tools: [oneString("get_capital", "country")],
            expected: { name: "get_capital", args: { country: "PotatoLand" }, id: "call_YfwRsW8sUxDKipwyhWTzOXCA" },
          },
          {
            name: "after an encrypted reasoning item",
            reply: { stream: sse("responses-stream-reasoning-encrypted-then-tool-call.sse") },
            tools: [
              { name: "final_result", inputSchema: { type: "object", properties: { result: { type: "integer" } } } },
            ],
            expected: { name: "final_result", args: { result: 6666 }, id: "call_CWXgs68YprAjp6t0371hiPOI" },
          },
        ],
        parallelToolCalls: [
          {
            name: "two get_location calls",
            reply: { create: recorded("responses-nonstream-two-parallel-tool-calls.json") },
            tools: [oneString("get_location", "loc_name")],
            expected: [
              { name: "get_location", args: { loc_name: "Londos" }, id: "call_LWVp74L5HaH2KNvgVz9PJsrj" },
              { name: "get_location", args: { loc_name: "London" }, id: "call_YnRAWeTyxI91m5uNa5bxXwVO" },
            ],
          },
        ],
        streamedToolCallArgs: {
          reply: sse("responses-stream-tool-call-args-split.sse"),
          tools: [oneString("get_capital", "country")],
          expected: { name: "get_capital", args: { country: "France" }, id: "call_kL0PCQV7M2WMoVX8V8OtYSAL" },
        },
        finishReasons: [
          {
            name: "completed",
            reply: { create: recorded("responses-nonstream-text.json"), stream: sse("responses-stream-text.sse") },
            expected: "stop",
          },
          {
            name: "completed with a function_call",
            reply: {
              create: recorded("responses-nonstream-tool-choice-required.json"),
              stream: sse("responses-stream-tool-call-args-split.sse"),
            },
            tools: [oneString("get_weather", "city"), oneString("get_capital", "country")],
            expected: "tool-calls",
          },
        ],
        errors: [
          {
            name: "400 decimal_below_min_value",
            reply: recorded("responses-error-400-invalid-temperature.json", 400),
            expected: {
              statusCode: 400,
              reason: "invalid-request",
              isRetryable: false,
              code: "decimal_below_min_value",
            },
          },
          {
            name: "400 reasoning item without its following item",
            reply: recorded("responses-error-400-reasoning-without-following-item.json", 400),
            expected: { statusCode: 400, reason: "invalid-request", isRetryable: false },
          },
          {
            name: "429 insufficient_quota (the status OpenAI documents for it)",
            reply: recorded("responses-error-insufficient-quota.json", 429),
            expected: { statusCode: 429, reason: "rate-limit", isRetryable: false, code: "insufficient_quota" },
          },
          {
            name: "400 unsupported parameter temperature",
            reply: recorded("responses-error-400-unsupported-parameter-temperature.json", 400),
            expected: { statusCode: 400, reason: "invalid-request", isRetryable: false },
          },
        ],
      },
    },
  );
});
