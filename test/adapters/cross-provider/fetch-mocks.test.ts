// keelson's clients send through globalThis.fetch, read at each request; a test suite that mocks
// globalThis.fetch (msw, a stub), even after the model was built, must still get every request.
import { afterEach, describe, expect, it, vi } from "vitest";
import type { ChatModel } from "../../../src/index.js";
import { OpenAIChatModel } from "../../../src/adapters/openai/index.js";
import { AzureOpenAIChatModel } from "../../../src/adapters/azure-openai/index.js";
import { OllamaChatModel } from "../../../src/adapters/ollama/index.js";
import { useLoopbackServer } from "../../support/loopback-server.js";
import { openAITextReply } from "../../support/openai-wire.js";
import { ollamaTextReply } from "../ollama/ollama-harness.js";
import { call, callModes, user } from "../../support/run-modes.js";

const server = useLoopbackServer();
afterEach(() => {
  vi.unstubAllGlobals();
});

const adapters: [string, () => ChatModel, ReturnType<typeof openAITextReply>][] = [
  [
    "OpenAIChatModel",
    () => new OpenAIChatModel("gpt-4o", { baseURL: `${server.url}/v1`, apiKey: "k", retry: { maxRetries: 0 } }),
    openAITextReply("from the mock"),
  ],
  [
    "AzureOpenAIChatModel",
    () => new AzureOpenAIChatModel("gpt-4o", { endpoint: server.url, apiKey: "k", retry: { maxRetries: 0 } }),
    openAITextReply("from the mock"),
  ],
  [
    "OllamaChatModel",
    () => new OllamaChatModel("llama3.2", { host: server.url, retry: { maxRetries: 0 } }),
    ollamaTextReply("from the mock"),
  ],
];

describe.each(adapters)("%s with globalThis.fetch mocked after the model was built", (_name, make, reply) => {
  it.each(callModes)("should send through the mock, not to the network (%s)", async (mode) => {
    const model = make();
    const mock = vi.fn(async (_url: string | URL | Request, init?: RequestInit) => {
      const answer = JSON.parse(String(init?.body)).stream ? reply.stream! : reply.create!;
      return new Response([answer.body].flat().join(""), {
        status: answer.status ?? 200,
        headers: answer.headers ?? {},
      });
    });
    vi.stubGlobal("fetch", mock);
    const output = await call(model, { messages: [user("hi")] }, mode);
    expect(output.text).toBe("from the mock");
    expect(mock).toHaveBeenCalledTimes(1);
    expect(server.requests).toHaveLength(0);
  });
});
