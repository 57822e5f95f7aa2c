import { createRequire } from "node:module";
import { describe, expect, it } from "vitest";
import { OllamaChatModel } from "../../src/adapters/ollama/index.js";
import { OpenAIChatModel } from "../../src/adapters/openai/index.js";
import { withGlobalDispatcher } from "../support/global-dispatcher.js";
import { sendJSON, useLoopbackServer } from "../support/loopback-server.js";

const server = useLoopbackServer();
const require = createRequire(import.meta.url);
const completion = {
  id: "c",
  object: "chat.completion",
  created: 1,
  model: "m",
  choices: [{ index: 0, message: { role: "assistant", content: "hi" }, finish_reason: "stop" }],
};
const ollamaReply = {
  model: "llama3.2",
  created_at: "2025-01-01T00:00:00Z",
  message: { role: "assistant", content: "hi" },
  done: true,
  done_reason: "stop",
};
const input = (timeout?: number) => ({
  messages: [{ role: "user" as const, content: "hello" }],
  ...(timeout === undefined ? {} : { timeout }),
});

describe("a call whose timeout outlasts fetch, with a global dispatcher set", () => {
  it("should still go through the global dispatcher (a proxy, a MockAgent) on both adapters", async () => {
    const { MockAgent } = require("undici") as typeof import("undici");
    const mock = new MockAgent();
    mock.disableNetConnect();
    const pool = mock.get(server.url);
    pool
      .intercept({ path: "/v1/chat/completions", method: "POST" })
      .reply(200, completion, { headers: { "content-type": "application/json" } })
      .persist();
    pool
      .intercept({ path: "/api/chat", method: "POST" })
      .reply(200, ollamaReply, { headers: { "content-type": "application/json" } })
      .persist();
    server.handle((_request, response) =>
      sendJSON(response, 500, { error: "the real server, past the global dispatcher" }),
    );
    await withGlobalDispatcher(mock, async () => {
      const openai = new OpenAIChatModel("gpt-4o-mini", {
        baseURL: `${server.url}/v1`,
        apiKey: "sk-probe",
        retry: { maxRetries: 0 },
      });
      const ollama = new OllamaChatModel("llama3.2", { host: server.url, retry: { maxRetries: 0 } });
      // A 1-minute timeout goes through the global dispatcher...
      await openai.create(input(60_000));
      await ollama.create(input(60_000));
      expect(server.requests).toHaveLength(0);
      // ...and a 20-minute one should too.
      const outcomes = await Promise.allSettled([openai.create(input(20 * 60_000)), ollama.create(input(20 * 60_000))]);
      expect(server.requests.map((request) => request.url)).toEqual([]);
      expect(outcomes.map((outcome) => outcome.status)).toEqual(["fulfilled", "fulfilled"]);
    });
  });
});
