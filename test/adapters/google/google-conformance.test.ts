import { describe, it } from "vitest";
import { GoogleChatModel } from "../../../src/adapters/google/index.js";
import type { ToolDefinition } from "../../../src/index.js";
import type { AdapterConformanceOptions } from "../../../src/testing/index.js";
import { runAdapterConformance } from "../../../src/testing/index.js";
import { geminiError, geminiSSE, geminiTextReply, readGeminiRequest } from "../../support/gemini-wire.js";
import { jsonResponse, sseResponse } from "../../support/openai-wire.js";
import { hasSharedFixtures, missingFixturesMessage, readFixture } from "../../support/shared-fixtures.js";

const weather: ToolDefinition = {
  name: "get_weather",
  inputSchema: { type: "object", properties: { city: { type: "string" } }, required: ["city"] },
};
const topic: ToolDefinition = { name: "generate_topic", inputSchema: { type: "object", properties: {} } };
const country: ToolDefinition = { name: "get_country", inputSchema: { type: "object", properties: {} } };

const common: Omit<AdapterConformanceOptions, "name" | "scenarios"> = {
  createModel: (baseURL, options) =>
    new GoogleChatModel("gemini-2.5-flash", { baseURL, apiKey: "AIza-test-SENTINEL-123", ...options }),
  textReply: geminiTextReply,
  readRequest: readGeminiRequest,
  retryableError: geminiError(429, "RESOURCE_EXHAUSTED", "Resource has been exhausted", { "retry-after": "0" }),
  skip: {
    "tool-call-ids": "Gemini's function calls carry no id: keelson gives each a call_… id",
    "streamed-tool-call-args": "Gemini streams a function call whole, in one event",
  },
};

// The recorded Gemini traffic in ../shared/fixtures/gemini, replayed as recorded.
describe.skipIf(!hasSharedFixtures)(hasSharedFixtures ? "recorded fixtures" : missingFixturesMessage, () => {
  if (!hasSharedFixtures) return;
  const recorded = (name: string, status = 200, headers: Record<string, string> = {}) =>
    jsonResponse(readFixture(`gemini/${name}`), status, headers);
  const sse = (name: string) => sseResponse(readFixture(`gemini/${name}`));
  const issueBody = (name: string, status: number) => jsonResponse(readFixture(`gemini/${name}`), status);
  runAdapterConformance(
    { describe, it },
    {
      ...common,
      name: "GoogleChatModel conformance (recorded)",
      scenarios: {
        text: [
          {
            name: "gemini-2.5-flash, thoughts counted in the output",
            reply: { create: recorded("generate-nonstream-text.json") },
            expected: {
              text: JSON.parse(readFixture("gemini/generate-nonstream-text.json")).candidates[0].content.parts[0].text,
              usage: { inputTokens: 9, outputTokens: 9 + 34, reasoningTokens: 34, totalTokens: 52 },
              finishReason: "stop",
            },
          },
          {
            name: "streamed text",
            reply: { stream: sse("stream-text.sse") },
            expected: {
              text: "The capital of France is Paris.\n",
              usage: { inputTokens: 13, outputTokens: 8, totalTokens: 21 },
              finishReason: "stop",
            },
          },
          {
            name: "streamed text whose last part is a signature",
            reply: { stream: geminiSSE(readFixture("gemini/stream-text-signature-on-empty-final-part.chunks.ndjson")) },
            expected: { text: 'There are **3** "r"s in strawberry.\n\nst**r**awbe**rr**y', finishReason: "stop" },
          },
        ],
        toolCall: [
          {
            name: "mode AUTO",
            reply: { create: recorded("generate-nonstream-function-call-round-trip-mode-auto.0.json") },
            tools: [weather],
            expected: { name: "get_weather", args: { city: "Paris" } },
          },
          {
            name: "mode ANY",
            reply: { create: recorded("generate-nonstream-function-call-mode-any.json") },
            tools: [weather],
            expected: { name: "get_weather", args: { city: "Paris" } },
          },
          {
            name: "streamed, with its signature",
            reply: { stream: sse("stream-function-call-thought-signature-round-trip.0.sse") },
            tools: [country],
            expected: { name: "get_country", args: {} },
          },
        ],
        parallelToolCalls: [
          {
            name: "three generate_topic calls",
            reply: { create: recorded("generate-nonstream-three-parallel-function-calls-round-trip.0.json") },
            tools: [topic],
            expected: [
              { name: "generate_topic", args: {} },
              { name: "generate_topic", args: {} },
              { name: "generate_topic", args: {} },
            ],
          },
        ],
        finishReasons: [
          { name: "MAX_TOKENS", reply: { create: recorded("generate-nonstream-max-tokens.json") }, expected: "length" },
          {
            name: "SAFETY",
            reply: { create: recorded("generate-nonstream-finish-safety.json") },
            expected: "content-filter",
          },
          {
            name: "STOP with a function call",
            reply: {
              create: recorded("generate-nonstream-function-call-mode-any.json"),
              stream: sse("stream-function-call-thought-signature-round-trip.0.sse"),
            },
            tools: [weather, country],
            expected: "tool-calls",
          },
        ],
        errors: [
          {
            name: "404 NOT_FOUND",
            reply: recorded("generate-error-404-model-not-found.json", 404),
            expected: { statusCode: 404, reason: "not-found", isRetryable: false, code: "NOT_FOUND" },
          },
          {
            name: "429 RESOURCE_EXHAUSTED (as posted)",
            reply: issueBody("generate-error-429-resource-exhausted.issue-gke-labs-1215.json", 429),
            expected: { statusCode: 429, reason: "rate-limit", isRetryable: true, code: "RESOURCE_EXHAUSTED" },
          },
          {
            name: "503 UNAVAILABLE (as posted)",
            reply: issueBody("generate-error-503-high-demand.issue-continue-10639.json", 503),
            expected: { statusCode: 503, reason: "server", isRetryable: true, code: "UNAVAILABLE" },
          },
          {
            name: "500 INTERNAL (as posted)",
            reply: issueBody("generate-error-500-internal.issue-project-zeno-591.json", 500),
            expected: { statusCode: 500, reason: "server", isRetryable: true, code: "INTERNAL" },
          },
        ],
      },
    },
  );
});
