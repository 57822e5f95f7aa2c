// countTokens against the recorded count endpoints (Anthropic's count_tokens, the Responses API's
// input_tokens), replayed on a loopback server through the real SDKs; and the estimate where a
// provider has no endpoint or it fails.
import { describe, expect, it } from "vitest";
import { AnthropicChatModel } from "../../../src/adapters/anthropic/index.js";
import { OpenAIChatModel, OpenAIResponsesChatModel } from "../../../src/adapters/openai/index.js";
import { sendJSON, useLoopbackServer } from "../../support/loopback-server.js";
import { hasSharedFixtures, missingFixturesMessage, readCassette } from "../../support/shared-fixtures.js";

const weather = {
  name: "get_weather",
  description: "Get the weather for a location",
  inputSchema: { type: "object", properties: { location: { type: "string" } }, additionalProperties: false },
};

describe.skipIf(!hasSharedFixtures)("ChatModel.countTokens against recorded count endpoints", () => {
  if (!hasSharedFixtures) it.skip(missingFixturesMessage, () => undefined);
  const server = useLoopbackServer();
  const replay = (cassette: string) => {
    const [interaction] = readCassette(cassette);
    server.handle((_request, response) => sendJSON(response, 200, interaction!.response.parsed_body));
    return interaction!.request;
  };

  it("should ask Anthropic's count_tokens endpoint and answer its exact count", async () => {
    const recorded = replay("anthropic/messages-count-tokens.cassette.yaml");
    const model = new AnthropicChatModel("claude-sonnet-4-5", { baseURL: server.url, apiKey: "sk-ant-test" });
    const count = await model.countTokens({
      messages: [{ role: "user", content: [{ type: "text", text: "The quick brown fox jumps over the lazydog." }] }],
    });
    expect(count).toEqual({ inputTokens: 19, exact: true });
    const [sent] = server.requests;
    expect(sent!.url).toMatch(/^\/v1\/messages\/count_tokens/);
    // The recorded request's fields, and nothing a count does not take (max_tokens, stream).
    expect(sent!.json).toMatchObject(recorded.parsed_body as object);
    expect(Object.keys(sent!.json).sort()).toEqual(["messages", "model"]);
  });

  it("should ask the Responses API's input_tokens endpoint, tools and tool_choice included", async () => {
    const recorded = replay("openai-responses/responses-input-tokens-with-tools.cassette.yaml");
    // A loopback URL is not OpenAI's: the support OpenAI's own endpoint has is stated.
    const model = new OpenAIResponsesChatModel("gpt-4.1-mini", {
      baseURL: `${server.url}/v1`,
      apiKey: "sk-test",
      toolChoiceSupport: ["auto", "none", "required", "single"],
    });
    const count = await model.countTokens({
      messages: [{ role: "user", content: "What is the weather in Paris?" }],
      tools: [weather],
      toolChoice: "required",
    });
    expect(count).toEqual({ inputTokens: 51, exact: true });
    const [sent] = server.requests;
    expect(sent!.url).toBe("/v1/responses/input_tokens");
    const recordedBody = recorded.parsed_body as { tool_choice: string; tools: { name: string }[] };
    expect(sent!.json).toMatchObject({ model: "gpt-4.1-mini", tool_choice: recordedBody.tool_choice });
    expect(sent!.json.tools.map((tool: { name: string }) => tool.name)).toEqual(["get_weather"]);
  });

  it("should estimate (exact: false) when the count endpoint fails", async () => {
    server.handle((_request, response) =>
      sendJSON(response, 404, { type: "error", error: { type: "not_found_error", message: "Not found" } }),
    );
    const model = new AnthropicChatModel("claude-sonnet-4-5", { baseURL: server.url, apiKey: "sk-ant-test" });
    const count = await model.countTokens({
      messages: [{ role: "user", content: "The quick brown fox jumps over the lazydog." }],
    });
    expect(count.exact).toBe(false);
    expect(count.inputTokens).toBeGreaterThan(5);
    expect(count.inputTokens).toBeLessThan(40);
  });
});

describe("ChatModel.countTokens without a count endpoint", () => {
  it("should count an OpenAI model's text with its own tokenizer, sending nothing", async () => {
    const model = new OpenAIChatModel("gpt-4o", { baseURL: "http://127.0.0.1:9/v1", apiKey: "sk-test" });
    const short = await model.countTokens({ messages: [{ role: "user", content: "hello" }] });
    const long = await model.countTokens({ messages: [{ role: "user", content: "hello ".repeat(100) }] });
    expect(short.exact).toBe(false);
    // "hello " is one token in o200k_base: a hundred of them are about a hundred more.
    expect(long.inputTokens - short.inputTokens).toBeGreaterThanOrEqual(98);
    expect(long.inputTokens - short.inputTokens).toBeLessThanOrEqual(101);
  });

  it("should count a special token's spelling as text, never fail on it", async () => {
    const model = new OpenAIChatModel("gpt-4o", { baseURL: "http://127.0.0.1:9/v1", apiKey: "sk-test" });
    const count = await model.countTokens({ messages: [{ role: "user", content: "<|endoftext|><|im_start|>" }] });
    expect(count.inputTokens).toBeGreaterThan(5);
  });
});
