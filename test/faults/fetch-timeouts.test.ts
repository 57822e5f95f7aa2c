/**
 * Node's fetch (undici) ends a request that waits 300 s for its headers (headersTimeout) or 300 s
 * between two body chunks (bodyTimeout), whatever the caller's own deadline. The openai and ollama
 * SDKs use it, so keelson's `timeout` must be what ends a long call, not these.
 *
 * Fake timers from the first line: undici's timer wheel is one timer, made on the process's first
 * fetch and refreshed from then on, so it is fake only when that fetch runs under fake timers
 * (vitest runs each file in a fresh process). Nothing in this file may fetch before that.
 */
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { AzureOpenAIChatModel } from "../../src/adapters/azure-openai/index.js";
import { OllamaChatModel } from "../../src/adapters/ollama/index.js";
import { OpenAIChatModel } from "../../src/adapters/openai/index.js";
import type { ChatModel } from "../../src/index.js";
import type { LoopbackServer } from "../support/loopback-server.js";
import { startLoopbackServer } from "../support/loopback-server.js";
import { neverAnswer, stallAfter } from "./fault-server.js";

let server: LoopbackServer;
const openAIHead = `data: ${JSON.stringify({ id: "c", object: "chat.completion.chunk", created: 1, model: "m", choices: [{ index: 0, delta: { role: "assistant", content: "" }, finish_reason: null }] })}\n\n`;
const ollamaHead = `${JSON.stringify({ model: "llama3.2", created_at: "2025-01-01T00:00:00Z", message: { role: "assistant", content: "" }, done: false })}\n`;

beforeAll(async () => {
  vi.useFakeTimers({ toFake: ["setTimeout", "clearTimeout", "setInterval", "clearInterval"] });
  // A create waits for its headers; a stream gets its headers and a first empty delta, then the
  // model thinks in silence (as a reasoning model does before its first token).
  server = await startLoopbackServer((request, response) => {
    if (request.json?.stream !== true) return neverAnswer(request, response);
    return request.url.startsWith("/api/")
      ? stallAfter("application/x-ndjson", ollamaHead)(request, response)
      : stallAfter("text/event-stream", openAIHead)(request, response);
  });
});
afterAll(async () => {
  vi.useRealTimers();
  await server.close();
});

const minutes = (count: number) => count * 60_000;
const adapters = (options: { retry?: { maxRetries: number } }): [string, () => ChatModel][] => [
  ["OllamaChatModel", () => new OllamaChatModel("llama3.2", { host: server.url, ...options })],
  [
    "OpenAIChatModel",
    () => new OpenAIChatModel("gpt-4o-mini", { baseURL: `${server.url}/v1`, apiKey: "sk-probe", ...options }),
  ],
  [
    "AzureOpenAIChatModel",
    () =>
      new AzureOpenAIChatModel("gpt-4o", {
        endpoint: server.url,
        apiKey: "sk-probe",
        apiVersion: "2024-12-01-preview",
        ...options,
      }),
  ],
];

/** A call the server never finishes, once its request has arrived: the requests before it, and the call's outcome so far. */
async function startThinkingCall(
  model: ChatModel,
  mode: "create" | "createStream",
  timeout?: number,
): Promise<{ before: number; outcome: unknown }> {
  const state: { before: number; outcome: unknown } = { before: server.requests.length, outcome: "pending" };
  const input = {
    messages: [{ role: "user" as const, content: "think for a long time" }],
    ...(timeout === undefined ? {} : { timeout }),
  };
  const call = mode === "create" ? model.create(input) : model.createStream(input).final();
  void call.then(
    () => (state.outcome = "resolved"),
    (error: unknown) => (state.outcome = error),
  );
  await vi.waitFor(() => expect(server.requests.length).toBe(state.before + 1), { interval: 2, timeout: 5000 });
  return state;
}

describe.each(adapters({ retry: { maxRetries: 0 } }))("%s on a model that thinks for minutes", (_name, make) => {
  it.each(["create", "createStream"] as const)(
    "should still be waiting after 6 minutes of a 20-minute timeout (%s)",
    async (mode) => {
      const call = await startThinkingCall(make(), mode, minutes(20));
      for (let second = 0; second < 360; second += 10) await vi.advanceTimersByTimeAsync(10_000);
      await new Promise((resolve) => setImmediate(resolve));
      expect(call.outcome, "the call ended long before its timeout").toBe("pending");
      await vi.advanceTimersByTimeAsync(minutes(15));
      await vi.waitFor(() => expect(call.outcome).not.toBe("pending"), { interval: 2, timeout: 2000 });
      expect(call.outcome).toMatchObject({ name: "TimeoutError" });
    },
  );
});

describe.each(adapters({}))("%s on a model that thinks for minutes, called without a timeout", (_name, make) => {
  it.each(["create", "createStream"] as const)(
    "should fail once at Node's 5-minute limit, saying to give the call a timeout (%s)",
    async (mode) => {
      const call = await startThinkingCall(make(), mode);
      for (let second = 0; second < 330; second += 10) await vi.advanceTimersByTimeAsync(10_000);
      await vi.waitFor(() => expect(call.outcome).not.toBe("pending"), { interval: 2, timeout: 2000 });
      expect(call.outcome).toMatchObject({ name: "ProviderError", reason: "timeout", isRetryable: false });
      expect((call.outcome as Error).message).toMatch(/300 s/);
      expect((call.outcome as Error).message).toMatch(/timeout:/);
      // Not retried (the retries are on): the same generation would take as long again.
      expect(server.requests.length).toBe(call.before + 1);
    },
  );
});
