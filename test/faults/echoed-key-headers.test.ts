import type { ServerResponse } from "node:http";
import { describe, expect, it } from "vitest";
import { AnthropicChatModel } from "../../src/adapters/anthropic/index.js";
import { OpenAIChatModel, OpenAIResponsesChatModel } from "../../src/adapters/openai/index.js";
import { createOpenAICompatibleModel } from "../../src/openai-compatible-presets.js";
import { ProviderError } from "../../src/index.js";
import type { ChatModel } from "../../src/index.js";
import type { ReplayResponse } from "../../src/testing/index.js";
import { anthropicTextReply } from "../support/anthropic-wire.js";
import { useLoopbackServer } from "../support/loopback-server.js";
import { openAITextReply } from "../support/openai-wire.js";
import { responsesTextReply } from "../support/openai-responses-wire.js";
import { callModes, settleCall } from "../support/run-modes.js";

/**
 * A 429 or 529 whose response headers echo the API key (gateways and debug proxies do this): the
 * SDK hands keelson its error with the fetch `Headers`, which are immutable. Redacting them must
 * never throw: the call is a retryable ProviderError, retried, with no key anywhere in it.
 */
const key = "sk-ECHOED-0123456789abcdef0123";
const server = useLoopbackServer();
const input = { messages: [{ role: "user" as const, content: "hi" }] };

function send(response: ServerResponse, reply: ReplayResponse): void {
  response.writeHead(reply.status ?? 200, reply.headers);
  response.end(reply.body);
}

/** Refused with an echoed key first, then answered. */
function refuseThenAnswer(status: number, body: object, reply: { create?: ReplayResponse; stream?: ReplayResponse }) {
  server.handle((request, response) => {
    if (server.requests.length === 1) {
      response.writeHead(status, {
        "content-type": "application/json",
        "retry-after": "0",
        "x-echoed-authorization": `Bearer ${key}`,
        "x-api-key-echo": key,
      });
      response.end(JSON.stringify(body));
      return;
    }
    send(response, request.json?.stream ? reply.stream! : reply.create!);
  });
}

const openAIBody = {
  error: { message: `Rate limit reached for key ${key}`, type: "requests", code: "rate_limit_exceeded" },
};
const anthropicBody = (type: string) => ({ type: "error", error: { type, message: `slow down ${key}` } });

const cases: {
  name: string;
  status: number;
  body: object;
  model: (maxRetries: number) => ChatModel;
  reply: () => ReturnType<typeof openAITextReply>;
}[] = [
  {
    name: "Anthropic, 529 overloaded",
    status: 529,
    body: anthropicBody("overloaded_error"),
    model: (maxRetries) =>
      new AnthropicChatModel("claude-sonnet-4-5", { apiKey: key, baseURL: server.url, retry: { maxRetries } }),
    reply: () => anthropicTextReply("fine"),
  },
  {
    name: "Anthropic, 429",
    status: 429,
    body: anthropicBody("rate_limit_error"),
    model: (maxRetries) =>
      new AnthropicChatModel("claude-sonnet-4-5", { apiKey: key, baseURL: server.url, retry: { maxRetries } }),
    reply: () => anthropicTextReply("fine"),
  },
  {
    name: "OpenAI chat, 429",
    status: 429,
    body: openAIBody,
    model: (maxRetries) =>
      new OpenAIChatModel("gpt-4o-mini", { apiKey: key, baseURL: server.url, retry: { maxRetries } }),
    reply: () => openAITextReply("fine"),
  },
  {
    name: "OpenAI Responses, 429",
    status: 429,
    body: openAIBody,
    model: (maxRetries) =>
      new OpenAIResponsesChatModel("gpt-4o-mini", { apiKey: key, baseURL: server.url, retry: { maxRetries } }),
    reply: () => responsesTextReply("fine"),
  },
  {
    name: "a preset (together), 429",
    status: 429,
    body: openAIBody,
    model: (maxRetries) =>
      createOpenAICompatibleModel("together", "meta-llama/Llama-3.3-70B", {
        apiKey: key,
        baseURL: server.url,
        retry: { maxRetries },
      }),
    reply: () => openAITextReply("fine"),
  },
];

describe("an error whose response headers echo the key", () => {
  for (const { name, status, body, model, reply } of cases) {
    for (const mode of callModes) {
      it(`should be retried, then answer (${name}, ${mode})`, async () => {
        refuseThenAnswer(status, body, reply());
        const { output, error } = await settleCall(model(2), input, mode);
        expect(error).toBeUndefined();
        expect(output?.text).toBe("fine");
        expect(server.requests).toHaveLength(2);
      });

      it(`should be a retryable ProviderError without the key when not retried (${name}, ${mode})`, async () => {
        refuseThenAnswer(status, body, reply());
        const { error } = await settleCall(model(0), input, mode);
        expect(ProviderError.isInstance(error)).toBe(true);
        expect(error?.isRetryable).toBe(true);
        expect(error?.message).not.toContain(key);
        const headers = (error?.cause as { headers?: Headers } | undefined)?.headers;
        expect(headers?.get("x-api-key-echo")).toBe("[redacted]");
        expect(headers?.get("retry-after")).toBe("0");
      });
    }
  }
});
