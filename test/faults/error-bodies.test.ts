import { describe, expect, it } from "vitest";
import { AnthropicChatModel } from "../../src/adapters/anthropic/index.js";
import { OllamaChatModel } from "../../src/adapters/ollama/index.js";
import { OpenAIChatModel, OpenAIResponsesChatModel } from "../../src/adapters/openai/index.js";
import { ProviderError } from "../../src/index.js";
import type { ChatModel } from "../../src/index.js";
import { useBedrockLoopback } from "../support/bedrock-loopback.js";
import { useLoopbackServer } from "../support/loopback-server.js";
import { callModes, settleCall } from "../support/run-modes.js";

/**
 * What an error copies from a server's body, and what it says of the requests made: a proxy's 5 MB
 * HTML 502 is not a message (every adapter bounds it), an OpenAI-style JSON body in front of Ollama
 * keeps its message, and an error after transport retries says how many requests were made.
 */
const server = useLoopbackServer();
const bedrock = useBedrockLoopback();
const input = { messages: [{ role: "user" as const, content: "hi" }] };
const page = `<!doctype html><html><body>${"<p>Bad gateway, try again later.</p>".repeat(140_000)}</body></html>`;

type Make = (maxRetries: number) => ChatModel;
const models: [string, Make][] = [
  [
    "Anthropic",
    (maxRetries) =>
      new AnthropicChatModel("claude-sonnet-4-5", {
        apiKey: "sk-ant-test-0123456789",
        baseURL: server.url,
        retry: { maxRetries, initialDelayMs: 1 },
      }),
  ],
  [
    "OpenAI chat",
    (maxRetries) =>
      new OpenAIChatModel("gpt-4o-mini", {
        apiKey: "sk-test-0123456789",
        baseURL: server.url,
        retry: { maxRetries, initialDelayMs: 1 },
      }),
  ],
  [
    "OpenAI Responses",
    (maxRetries) =>
      new OpenAIResponsesChatModel("gpt-4o-mini", {
        apiKey: "sk-test-0123456789",
        baseURL: server.url,
        retry: { maxRetries, initialDelayMs: 1 },
      }),
  ],
  [
    "Ollama",
    (maxRetries) => new OllamaChatModel("llama3.2", { host: server.url, retry: { maxRetries, initialDelayMs: 1 } }),
  ],
  ["Bedrock", (maxRetries) => bedrock.model(undefined, { retry: { maxRetries, initialDelayMs: 1 } })],
];

function answerAlways(status: number, body: string, contentType: string): void {
  server.handle((_request, response) => {
    response.writeHead(status, { "content-type": contentType });
    response.end(body);
  });
  bedrock.server.handle((_request, response) => {
    response.writeHead(status, { "content-type": contentType });
    response.end(body);
  });
}

describe("an error's message", () => {
  for (const [name, make] of models) {
    for (const mode of callModes) {
      it(`should copy a bounded part of a 5 MB HTML 502 (${name}, ${mode})`, async () => {
        answerAlways(502, page, "text/html");
        const { error } = await settleCall(make(0), input, mode);
        expect(ProviderError.isInstance(error)).toBe(true);
        expect(error!.message.length).toBeLessThan(10_000);
      });

      it(`should say how many requests were made after transport retries (${name}, ${mode})`, async () => {
        answerAlways(
          503,
          JSON.stringify({ error: { message: "overloaded", type: "server_error" } }),
          "application/json",
        );
        const { error } = await settleCall(make(2), input, mode);
        expect(ProviderError.isInstance(error)).toBe(true);
        expect(error!.attempts).toBe(3);
        expect(error!.message).toContain("3 requests");
      });
    }
  }

  it("should give attempts 1 and no count in the message when nothing was retried", async () => {
    answerAlways(400, JSON.stringify({ error: { message: "bad", type: "invalid_request_error" } }), "application/json");
    const { error } = await settleCall(models[1]![1](2), input, "create");
    expect(error!.attempts).toBe(1);
    expect(error!.message).not.toMatch(/requests were made/);
  });
});

describe("OllamaChatModel behind an OpenAI-style gateway", () => {
  for (const [status, said] of [
    [401, "Invalid API key provided: check your gateway token"],
    [429, "Rate limit exceeded for this gateway key"],
    [403, "This key may not use the model"],
  ] as const) {
    for (const mode of callModes) {
      it(`should keep the body's message of a ${status} (${mode})`, async () => {
        answerAlways(
          status,
          JSON.stringify({ error: { message: said, type: "invalid_request_error", code: null } }),
          "application/json",
        );
        const { error } = await settleCall(models[3]![1](0), input, mode);
        expect(ProviderError.isInstance(error)).toBe(true);
        expect(error!.statusCode).toBe(status);
        expect(error!.message).toContain(said);
      });
    }
  }

  it("should keep a bare { message } or { detail } body's message", async () => {
    for (const body of [{ message: "gateway says no" }, { detail: "gateway says no" }]) {
      answerAlways(401, JSON.stringify(body), "application/json");
      const { error } = await settleCall(models[3]![1](0), input, "create");
      expect(error!.message).toContain("gateway says no");
    }
  });
});
