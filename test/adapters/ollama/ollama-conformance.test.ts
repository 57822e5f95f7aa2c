import type { ChatResponse } from "ollama";
import { describe, it } from "vitest";
import { OllamaChatModel } from "../../../src/adapters/ollama/index.js";
import type { AdapterConformanceOptions } from "../../../src/testing/index.js";
import { runAdapterConformance } from "../../../src/testing/index.js";
import { ndjsonLines } from "../../support/ndjson.js";
import {
  hasSharedFixtures,
  missingFixturesMessage,
  readFixture,
  readJSONFixture,
} from "../../support/shared-fixtures.js";
import {
  ollamaJSON,
  ollamaNDJSON,
  ollamaReply,
  ollamaTextReply,
  readOllamaRequest,
  readOwnFixture,
  readOwnJSON,
} from "./ollama-harness.js";

const lookupIncident = {
  name: "lookup_incident",
  inputSchema: { type: "object", properties: { incident_id: { type: "string" } }, required: ["incident_id"] },
};
const pageOnCall = {
  name: "page_on_call",
  inputSchema: { type: "object", properties: { team: { type: "string" } }, required: ["team"] },
};
const getWeather = {
  name: "get_weather",
  inputSchema: { type: "object", properties: { city: { type: "string" } }, required: ["city"] },
};
const getCurrentWeather = {
  name: "get_current_weather",
  inputSchema: {
    type: "object",
    properties: { location: { type: "string" }, format: { type: "string", enum: ["celsius", "fahrenheit"] } },
    required: ["location", "format"],
  },
};

const common: Omit<AdapterConformanceOptions, "name" | "scenarios"> = {
  createModel: (baseURL, options) => new OllamaChatModel("llama3.2", { host: baseURL, ...options }),
  textReply: ollamaTextReply,
  readRequest: readOllamaRequest,
  retryableError: ollamaJSON(readOwnFixture("api-chat-error-500.json"), 500),
  skip: {
    "streamed-tool-call-args":
      "Ollama streams each tool call whole, in one NDJSON object (docs/api.md, streaming with tools): its arguments never arrive in pieces.",
    "tool-call-ids":
      "Ollama's /api/chat gives tool calls no ids (a tool result is paired by tool_name): keelson generates call_… ids, which the tool-call cases check are present and distinct.",
  },
};

const own = (name: string) => ollamaReply(readOwnJSON(name));

// Our own documented-format fixtures: meaningful on a bare clone.
runAdapterConformance(
  { describe, it },
  {
    ...common,
    name: "OllamaChatModel conformance (own fixtures)",
    scenarios: {
      text: [
        {
          name: "one JSON body",
          reply: { create: own("api-chat-nonstream-text.json").create! },
          expected: { text: "Hello! How can I help?", usage: { inputTokens: 12, outputTokens: 7, totalTokens: 19 } },
        },
        {
          name: "NDJSON deltas, then the done chunk with the counts",
          reply: { stream: ollamaNDJSON(ndjsonLines(readOwnFixture("api-chat-stream-text.ndjson"))) },
          expected: { text: "The sky is blue.", usage: { inputTokens: 26, outputTokens: 4, totalTokens: 30 } },
        },
      ],
      toolCall: [
        {
          name: "lookup_incident",
          reply: own("api-chat-nonstream-tool-call.json"),
          tools: [lookupIncident],
          expected: { name: "lookup_incident", args: { incident_id: "INC-001" } },
        },
      ],
      parallelToolCalls: [
        {
          name: "lookup_incident and page_on_call",
          reply: own("api-chat-nonstream-two-tool-calls.json"),
          tools: [lookupIncident, pageOnCall],
          expected: [
            { name: "lookup_incident", args: { incident_id: "INC-001" } },
            { name: "page_on_call", args: { team: "auth" } },
          ],
        },
      ],
      finishReasons: [
        { name: "stop", reply: own("api-chat-nonstream-text.json"), expected: "stop" },
        { name: "length", reply: own("api-chat-nonstream-length.json"), expected: "length" },
        {
          name: "stop with tool calls",
          reply: own("api-chat-nonstream-tool-call.json"),
          tools: [lookupIncident],
          expected: "tool-calls",
        },
      ],
      errors: [
        {
          name: "404 model not found",
          reply: ollamaJSON(readOwnFixture("api-chat-error-404-model-not-found.json"), 404),
          expected: { statusCode: 404, reason: "not-found", isRetryable: false, code: "model_not_found" },
        },
        {
          name: "500 runner terminated",
          reply: ollamaJSON(readOwnFixture("api-chat-error-500.json"), 500),
          expected: { statusCode: 500, reason: "server", isRetryable: true },
        },
      ],
    },
  },
);

// The documented /api/chat traffic in ../shared/fixtures/ollama (ollama/ollama docs/api.md).
describe.skipIf(!hasSharedFixtures)(
  hasSharedFixtures ? "recorded fixtures" : `OllamaChatModel conformance (recorded): ${missingFixturesMessage}`,
  () => {
    if (!hasSharedFixtures) return;
    const recorded = (name: string) => readJSONFixture<ChatResponse>(`ollama/${name}`);
    const toolCallStream = ollamaNDJSON(ndjsonLines(readFixture("ollama/api-chat-stream-tool-call.docs.ndjson")));
    runAdapterConformance(
      { describe, it },
      {
        ...common,
        name: "OllamaChatModel conformance (recorded)",
        scenarios: {
          text: [
            {
              // The docs show no whole text stream: the stream is this reply as Ollama streams it.
              name: "final answer after a tool result",
              reply: ollamaReply(recorded("api-chat-nonstream-text-after-tool-result.docs.json")),
              expected: {
                text: "The current temperature in Toronto is 11°C.",
                usage: { inputTokens: 94, outputTokens: 11, totalTokens: 105 },
              },
            },
          ],
          toolCall: [
            {
              name: "get_weather",
              reply: {
                create: ollamaJSON(recorded("api-chat-nonstream-one-tool-call.docs.json")),
                stream: toolCallStream,
              },
              tools: [getWeather],
              expected: { name: "get_weather", args: { city: "Tokyo" } },
            },
            {
              name: "two arguments",
              reply: { create: ollamaJSON(recorded("api-chat-nonstream-one-tool-call-two-args.docs.json")) },
              tools: [getCurrentWeather],
              expected: { name: "get_current_weather", args: { format: "celsius", location: "Paris, FR" } },
            },
          ],
          finishReasons: [
            {
              name: "stop",
              reply: ollamaReply(recorded("api-chat-nonstream-text-after-tool-result.docs.json")),
              expected: "stop",
            },
            {
              name: "stop with a tool call",
              reply: {
                create: ollamaJSON(recorded("api-chat-nonstream-one-tool-call.docs.json")),
                stream: toolCallStream,
              },
              tools: [getWeather],
              expected: "tool-calls",
            },
          ],
        },
      },
    );
  },
);
