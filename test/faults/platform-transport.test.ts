/**
 * keelson's clients send through the platform's fetch. What a server sends on the wire that a
 * hand-made transport got wrong must be read as Node's fetch reads it (issue 25 item 1), and what a
 * redirect asks must never turn into an answer from elsewhere or carry a key to another origin
 * (issue 25 item 10).
 */
import type { ServerResponse } from "node:http";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { AzureOpenAIChatModel } from "../../src/adapters/azure-openai/index.js";
import { OllamaChatModel } from "../../src/adapters/ollama/index.js";
import { OpenAIChatModel } from "../../src/adapters/openai/index.js";
import type { ChatModel } from "../../src/index.js";
import { ProviderError } from "../../src/index.js";
import type { ConformanceReply, ReplayResponse } from "../../src/testing/index.js";
import { useLoopbackServer, type RecordedRequest } from "../support/loopback-server.js";
import { openAITextReply } from "../support/openai-wire.js";
import { call, callModes, user } from "../support/run-modes.js";
import { ollamaTextReply } from "../adapters/ollama/ollama-harness.js";

const server = useLoopbackServer();
const elsewhere = useLoopbackServer();

/** The process-level failures a call must never cause, collected while a test runs. */
const escaped: unknown[] = [];
const collect = (error: unknown) => escaped.push(error);
beforeEach(() => {
  escaped.length = 0;
  process.on("unhandledRejection", collect);
  process.on("uncaughtException", collect);
});
afterEach(async () => {
  // Long enough for a body's late 'error' event (the old transport's crash) to surface.
  await new Promise((resolve) => setTimeout(resolve, 50));
  process.off("unhandledRejection", collect);
  process.off("uncaughtException", collect);
  expect(escaped).toEqual([]);
});

const adapters: [string, (url: string) => ChatModel, ConformanceReply][] = [
  [
    "OpenAIChatModel",
    (url) => new OpenAIChatModel("gpt-4o", { baseURL: `${url}/v1`, apiKey: "sk-test-key", retry: { maxRetries: 0 } }),
    openAITextReply("hello from the gateway"),
  ],
  [
    "OllamaChatModel",
    (url) => new OllamaChatModel("llama3.2", { host: url, retry: { maxRetries: 0 } }),
    ollamaTextReply("hello from the gateway"),
  ],
];

const replyFor = (reply: ConformanceReply, request: RecordedRequest): ReplayResponse =>
  (request.json?.stream === true ? reply.stream : reply.create)!;

/** Writes the response byte by byte as given, status line included, straight on the socket. */
function writeRaw(response: ServerResponse, statusLine: string, step: ReplayResponse, cut = false): void {
  const pieces = typeof step.body === "string" || step.body instanceof Uint8Array ? [step.body] : step.body;
  const body = Buffer.concat(pieces.map((piece) => Buffer.from(piece)));
  const headers = Object.entries(step.headers ?? {}).map(([name, value]) => `${name}: ${value}\r\n`);
  const head = Buffer.from(`${statusLine}\r\n${headers.join("")}content-length: ${body.length}\r\n\r\n`, "utf8");
  const socket = response.socket!;
  if (!cut) return void socket.end(Buffer.concat([head, body]));
  socket.write(Buffer.concat([head, body.subarray(0, Math.floor(body.length / 2))]), () => socket.destroy());
}

describe.each(adapters)("%s behind a gateway whose status line is UTF-8", (_name, make, reply) => {
  it.each(callModes)("should read the answer (%s)", async (mode) => {
    server.handle((request, response) => writeRaw(response, "HTTP/1.1 200 成功", replyFor(reply, request)));
    const output = await call(make(server.url), { messages: [user("hi")] }, mode);
    expect(output.text).toBe("hello from the gateway");
  });

  it.each(callModes)(
    "should fail with a ProviderError, not crash, when the connection drops mid-body (%s)",
    async (mode) => {
      server.handle((request, response) => writeRaw(response, "HTTP/1.1 200 成功", replyFor(reply, request), true));
      const error = await call(make(server.url), { messages: [user("hi")] }, mode).then(
        () => undefined,
        (caught: unknown) => caught,
      );
      expect(ProviderError.isInstance(error), String(error)).toBe(true);
    },
  );
});

describe.each(adapters)("%s redirected", (_name, make, reply) => {
  it.each(callModes)("should never follow a redirect to a data: URL into an answer (%s)", async (mode) => {
    server.handle((request, response) => {
      const { body } = openAITextReply("an answer from a data: URL").create!;
      response.writeHead(307, { location: `data:application/json,${encodeURIComponent(String(body))}` });
      response.end();
    });
    const outcome = await call(make(server.url), { messages: [user("hi")] }, mode).then(
      (output) => output.text,
      (caught: unknown) => caught,
    );
    expect(outcome).not.toBe("an answer from a data: URL");
    expect(ProviderError.isInstance(outcome), String(outcome)).toBe(true);
    // A redirect keelson will not follow is the same on every try: refused once, naming what and why.
    expect(outcome).toMatchObject({ code: "refused_redirect", isRetryable: false });
    expect((outcome as Error).message).toMatch(/refused a redirect to "data:application\/json.*base URL/);
    expect(server.requests).toHaveLength(1);
  });

  it.each(callModes)("should follow a redirect to another http origin to its answer (%s)", async (mode) => {
    server.handle((request, response) => {
      response.writeHead(307, { location: `${elsewhere.url}${request.url}` });
      response.end();
    });
    elsewhere.handle((request, response) => writeRaw(response, "HTTP/1.1 200 OK", replyFor(reply, request)));
    const output = await call(make(server.url), { messages: [user("hi")] }, mode);
    expect(output.text).toBe("hello from the gateway");
    expect(elsewhere.requests.at(-1)?.json?.messages).toBeDefined();
  });
});

describe("credential headers on a redirect", () => {
  const models: [string, (url: string) => ChatModel, string[]][] = [
    [
      "AzureOpenAIChatModel (api-key)",
      (url) =>
        new AzureOpenAIChatModel("gpt-4o", {
          endpoint: url,
          apiKey: "azure-secret-key",
          apiVersion: "2024-12-01-preview",
          retry: { maxRetries: 0 },
        }),
      ["api-key"],
    ],
    [
      "OpenAIChatModel (authorization and a gateway header)",
      (url) =>
        new OpenAIChatModel("gpt-4o", {
          baseURL: `${url}/v1`,
          apiKey: "sk-secret-key",
          headers: { "x-gateway-token": "gateway-secret" },
          retry: { maxRetries: 0 },
        }),
      ["authorization", "x-gateway-token"],
    ],
    [
      "OllamaChatModel (a bearer token in headers)",
      (url) =>
        new OllamaChatModel("llama3.2", {
          host: url,
          headers: { Authorization: "Bearer ollama-secret" },
          retry: { maxRetries: 0 },
        }),
      ["authorization"],
    ],
  ];
  const replies: Record<string, ConformanceReply> = {
    Ollama: ollamaTextReply("hello from the gateway"),
    OpenAI: openAITextReply("hello from the gateway"),
  };
  const replyOf = (name: string) => (name.startsWith("Ollama") ? replies.Ollama! : replies.OpenAI!);

  describe.each(models)("%s", (name, make, credentials) => {
    it.each(callModes)("should not send its credentials to another origin (%s)", async (mode) => {
      server.handle((request, response) => {
        response.writeHead(307, { location: `${elsewhere.url}${request.url}` });
        response.end();
      });
      elsewhere.handle((request, response) => writeRaw(response, "HTTP/1.1 200 OK", replyFor(replyOf(name), request)));
      const output = await call(make(server.url), { messages: [user("hi")] }, mode);
      expect(output.text).toBe("hello from the gateway");
      const first = server.requests.at(-1)!;
      const second = elsewhere.requests.at(-1)!;
      // The first hop carried them (so the check below can fail), the other origin got none of them.
      for (const header of credentials) expect(first.headers[header], header).toBeDefined();
      for (const header of credentials) expect(second.headers[header], header).toBeUndefined();
      expect(JSON.stringify(second.headers)).not.toMatch(/secret/);
    });

    it.each(callModes)("should keep its credentials on a redirect within its origin (%s)", async (mode) => {
      server.handle((request, response) => {
        if (request.url.includes("moved"))
          return writeRaw(response, "HTTP/1.1 200 OK", replyFor(replyOf(name), request));
        const [path, query] = request.url.split("?");
        response.writeHead(308, { location: `${path}/moved${query ? `?${query}` : ""}` });
        response.end();
      });
      const before = server.requests.length;
      const output = await call(make(server.url), { messages: [user("hi")] }, mode);
      expect(output.text).toBe("hello from the gateway");
      const moved = server.requests.slice(before).find((request) => request.url.includes("moved"))!;
      for (const header of credentials) expect(moved.headers[header], header).toBeDefined();
    });
  });
});
