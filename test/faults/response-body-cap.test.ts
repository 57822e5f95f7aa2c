import type { ServerResponse } from "node:http";
import { gzipSync } from "node:zlib";
import { describe, expect, it } from "vitest";
import { AnthropicChatModel } from "../../src/adapters/anthropic/index.js";
import { AzureOpenAIChatModel } from "../../src/adapters/azure-openai/index.js";
import { OllamaChatModel } from "../../src/adapters/ollama/index.js";
import { OpenAIChatModel, OpenAIResponsesChatModel } from "../../src/adapters/openai/index.js";
import type { ChatModel, ChatModelOptions } from "../../src/index.js";
import { ProviderError } from "../../src/index.js";
import { useLoopbackServer } from "../support/loopback-server.js";
import type { Handler } from "../support/loopback-server.js";
import { callModes, settleCall } from "../support/run-modes.js";

// Issue 25 item 6: a small body that inflates without end, or a stream that never ends, stops at
// `maxResponseBytes` with a typed, unretried error; the server sees its connection closed.

const cap = 256 * 1024;
const retry = { retry: { maxRetries: 2, initialDelayMs: 1, maxDelayMs: 1 } } as const;
const ask = { messages: [{ role: "user" as const, content: "hi" }] };
/** Where a server stops writing on its own: far past the cap, so a body that is not capped fails the test. */
const serverLimit = 64 * 1024 * 1024;

interface Adapter {
  name: string;
  model(url: string, options?: ChatModelOptions): ChatModel;
  /** The content type of its streams. */
  streamType: string;
  /** One line of a stream, repeated without end: a keep-alive comment, or a text delta. */
  streamLine: string;
  /** What its messages tell a caller to check. */
  option: RegExp;
}

const key = "sk-body-cap-0123456789";
const adapters: Adapter[] = [
  {
    name: "OpenAIChatModel",
    model: (url, options) => new OpenAIChatModel("gpt-4o-mini", { baseURL: `${url}/v1`, apiKey: key, ...options }),
    streamType: "text/event-stream",
    streamLine: ": keep-alive\n\n",
    option: /baseURL/,
  },
  {
    name: "AzureOpenAIChatModel",
    model: (url, options) => new AzureOpenAIChatModel("prod", { endpoint: url, apiKey: key, ...options }),
    streamType: "text/event-stream",
    streamLine: ": keep-alive\n\n",
    option: /baseURL/,
  },
  {
    name: "OpenAIResponsesChatModel",
    model: (url, options) =>
      new OpenAIResponsesChatModel("gpt-5-mini", { baseURL: `${url}/v1`, apiKey: key, ...options }),
    streamType: "text/event-stream",
    streamLine: ": keep-alive\n\n",
    option: /baseURL/,
  },
  {
    name: "AnthropicChatModel",
    model: (url, options) => new AnthropicChatModel("claude-sonnet-4-5", { baseURL: url, apiKey: key, ...options }),
    streamType: "text/event-stream",
    streamLine: 'event: ping\ndata: {"type": "ping"}\n\n',
    option: /baseURL/,
  },
  {
    name: "OllamaChatModel",
    model: (url, options) =>
      new OllamaChatModel("llama3.2", { host: url, headers: { authorization: `Bearer ${key}` }, ...options }),
    streamType: "application/x-ndjson",
    streamLine: `${JSON.stringify({ model: "m", created_at: "x", message: { role: "assistant", content: "a" }, done: false })}\n`,
    option: /host/,
  },
];

/** Writes `line` again and again, minding backpressure, until the client goes or `serverLimit` bytes. */
function endless(contentType: string, line: string, closed: { value: boolean }): Handler {
  return (_request, response: ServerResponse) => {
    response.writeHead(200, { "content-type": contentType });
    const block = Buffer.from(line.repeat(Math.max(1, Math.floor(16_384 / line.length))));
    let written = 0;
    response.on("close", () => (closed.value = true));
    const pump = () => {
      while (!response.destroyed && written < serverLimit) {
        written += block.length;
        if (!response.write(block)) return void response.once("drain", pump);
      }
      response.end();
    };
    pump();
  };
}

/** A gzip body of `mebibytes` MiB once inflated: one member of a MiB of zeros (1 KB), sent that many times. */
function gzipBomb(mebibytes: number): Handler {
  const member = gzipSync(Buffer.alloc(1024 * 1024));
  const body = Buffer.concat(Array.from({ length: mebibytes }, () => member));
  return (_request, response) => {
    response.writeHead(200, { "content-type": "application/json", "content-encoding": "gzip" });
    response.end(body);
  };
}

function bytesReadOf(error: Error): number {
  const match = /reading stopped after (\d+) bytes/.exec(error.message);
  expect(match, error.message).not.toBeNull();
  return Number(match![1]);
}

function expectTooLarge(error: (Error & Partial<ProviderError>) | undefined): void {
  expect(ProviderError.isInstance(error), String(error)).toBe(true);
  expect(error).toMatchObject({ code: "response_too_large", reason: "server", isRetryable: false });
  expect(error!.message).toContain(`maxResponseBytes (${cap} bytes)`);
  expect(error!.message).toMatch(/raise maxResponseBytes/);
  // Reading stopped within one chunk of the cap.
  const read = bytesReadOf(error!);
  expect(read).toBeGreaterThan(cap);
  expect(read).toBeLessThan(cap + 1024 * 1024);
}

describe.each(adapters)("$name response body cap", (adapter) => {
  const server = useLoopbackServer();

  it("should stop a gzip body inflating to 640 MiB at the cap, with one request (create)", async () => {
    server.handle(gzipBomb(640));
    const { error } = await settleCall(adapter.model(server.url, { ...retry, maxResponseBytes: cap }), ask, "create");
    expectTooLarge(error);
    expect(server.requests).toHaveLength(1);
  });

  it("should stop an endless stream at the cap and close the connection (createStream)", async () => {
    const closed = { value: false };
    server.handle(endless(adapter.streamType, adapter.streamLine, closed));
    const { error } = await settleCall(
      adapter.model(server.url, { ...retry, maxResponseBytes: cap }),
      ask,
      "createStream",
    );
    expectTooLarge(error);
    expect(server.requests).toHaveLength(1);
    await expect.poll(() => closed.value, { timeout: 2000 }).toBe(true);
  });

  it("should stop a huge chunked body at the cap (create)", async () => {
    const closed = { value: false };
    server.handle(endless("application/json", `{"padding":"${"x".repeat(1000)}"}`, closed));
    const { error } = await settleCall(adapter.model(server.url, { ...retry, maxResponseBytes: cap }), ask, "create");
    expectTooLarge(error);
    expect(server.requests).toHaveLength(1);
  });
});

describe.each(adapters)("$name stream answered with an HTML page", (adapter) => {
  const server = useLoopbackServer();

  it("should fail at once, naming the page and what to check, with one request (createStream)", async () => {
    server.handle((_request, response) => {
      response.writeHead(200, { "content-type": "text/html; charset=utf-8" });
      response.end("<!doctype html><html><body>Sign in to continue</body></html>");
    });
    const { error, chunks } = await settleCall(adapter.model(server.url, retry), ask, "createStream");
    expect(ProviderError.isInstance(error), String(error)).toBe(true);
    expect(error).toMatchObject({ code: "not_a_stream", reason: "server", isRetryable: false });
    expect(error!.message).toContain("an HTML page");
    expect(error!.message).toContain("Sign in to continue");
    expect(error!.message).toMatch(adapter.option);
    expect(chunks).toHaveLength(0);
    expect(server.requests).toHaveLength(1);
  });

  it("should name the content type of a stream answered with another body, retried as a passing fault (createStream)", async () => {
    server.handle((_request, response) => {
      response.writeHead(200, { "content-type": "text/plain" });
      response.end(`not a stream, and not the key ${key}`);
    });
    const { error } = await settleCall(adapter.model(server.url, retry), ask, "createStream");
    expect(error).toMatchObject({ code: "not_a_stream", isRetryable: true });
    expect(error!.message).toContain('text/plain (starting "not a stream, and not the key');
    expect(error!.message).not.toContain(key);
    expect(server.requests).toHaveLength(3);
  });
});

describe("maxResponseBytes", () => {
  const server = useLoopbackServer();
  const completion = (text: string) => ({
    id: "c",
    object: "chat.completion",
    created: 1,
    model: "m",
    choices: [{ index: 0, message: { role: "assistant", content: text }, finish_reason: "stop" }],
  });

  it.each(callModes)("should read a 2 MiB reply under the default cap and with Infinity (%s)", async (mode) => {
    const text = "y".repeat(2 * 1024 * 1024);
    server.handle((_request, response) => {
      if (mode === "create") {
        response.writeHead(200, { "content-type": "application/json" });
        return void response.end(JSON.stringify(completion(text)));
      }
      response.writeHead(200, { "content-type": "text/event-stream" });
      const chunk = { ...completion(""), object: "chat.completion.chunk" };
      response.write(
        `data: ${JSON.stringify({ ...chunk, choices: [{ index: 0, delta: { content: text }, finish_reason: null }] })}\n\n`,
      );
      response.end(
        `data: ${JSON.stringify({ ...chunk, choices: [{ index: 0, delta: {}, finish_reason: "stop" }] })}\n\ndata: [DONE]\n\n`,
      );
    });
    const url = `${server.url}/v1`;
    for (const options of [{}, { maxResponseBytes: Infinity }]) {
      const { output, error } = await settleCall(
        new OpenAIChatModel("m", { baseURL: url, apiKey: key, ...options }),
        ask,
        mode,
      );
      expect(error).toBeUndefined();
      expect(output!.text).toHaveLength(text.length);
    }
    const { error } = await settleCall(
      new OpenAIChatModel("m", { baseURL: url, apiKey: key, maxResponseBytes: 1024 * 1024 }),
      ask,
      mode,
    );
    expect(error).toMatchObject({ code: "response_too_large" });
  });

  it("should cap a body whose content-length is past the cap", async () => {
    server.handle((_request, response) => {
      const body = JSON.stringify(completion("z".repeat(4000)));
      response.writeHead(200, { "content-type": "application/json", "content-length": Buffer.byteLength(body) });
      response.end(body);
    });
    const model = new OpenAIChatModel("m", { baseURL: `${server.url}/v1`, apiKey: key, maxResponseBytes: 1000 });
    const { error } = await settleCall(model, ask, "create");
    expect(error).toMatchObject({ code: "response_too_large" });
    expect(error!.message).toContain("maxResponseBytes (1000 bytes)");
  });

  it.each([0, -1, 1.5, Number.NaN, "1000", null])("should refuse %s with a TypeError naming the option", (value) => {
    expect(() => new OpenAIChatModel("m", { apiKey: key, maxResponseBytes: value as number })).toThrow(
      /maxResponseBytes must be a positive integer \(bytes\) or Infinity/,
    );
    expect(() => new OllamaChatModel("m", { maxResponseBytes: value as number })).toThrow(TypeError);
  });

  it("should cap a caller's own Ollama fetch too", async () => {
    server.handle(gzipBomb(64));
    let fetched = 0;
    const model = new OllamaChatModel("llama3.2", {
      host: server.url,
      maxResponseBytes: cap,
      fetch: (input, init) => {
        fetched++;
        return fetch(input, init);
      },
    });
    const { error } = await settleCall(model, ask, "create");
    expect(fetched).toBe(1);
    expect(error).toMatchObject({ code: "response_too_large" });
  });
});
