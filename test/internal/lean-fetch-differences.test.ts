import { createServer as createNetServer, type AddressInfo } from "node:net";
import { createRequire } from "node:module";
import { afterEach, describe, expect, it, vi } from "vitest";
import OpenAI from "openai";
import { leanFetch } from "../../src/internal/lean-fetch.js";
import { OpenAIChatModel } from "../../src/adapters/openai/index.js";
import { OllamaChatModel } from "../../src/adapters/ollama/index.js";
import { withGlobalDispatcher } from "../support/global-dispatcher.js";
import { sendJSON, useLoopbackServer } from "../support/loopback-server.js";
import { openAITextReply } from "../support/openai-wire.js";
import { ollamaTextReply } from "../adapters/ollama/ollama-harness.js";
import { settleCall, user } from "../support/run-modes.js";

const server = useLoopbackServer();
afterEach(() => vi.unstubAllGlobals());

const nodeFetch = globalThis.fetch;
const transports = [
  ["lean", leanFetch],
  ["node", nodeFetch],
] as const;

function ollama(fetchImpl: typeof fetch, extra: object = {}) {
  return new OllamaChatModel("llama3.2", { host: server.url, retry: { maxRetries: 0 }, fetch: fetchImpl, ...extra });
}
function openai(fetchImpl: typeof fetch) {
  return new OpenAIChatModel("gpt-4o", {
    client: new OpenAI({ baseURL: `${server.url}/v1`, apiKey: "k", maxRetries: 0, fetch: fetchImpl }),
    retry: { maxRetries: 0 },
  });
}
const okOllama = ollamaTextReply("hi there");
const okOpenAI = openAITextReply("hi there");

/** Summary of a settled call, for comparing both transports. */
async function outcome(model: Parameters<typeof settleCall>[0], mode: "create" | "createStream") {
  const { output, error } = await settleCall(model, { messages: [user("hi")] }, mode);
  return output
    ? { text: output.text }
    : {
        name: error!.name,
        message: error!.message,
        reason: error!.reason,
        status: error!.statusCode,
        retryable: error!.isRetryable,
        cause: (error!.cause as Error | undefined)?.constructor?.name,
      };
}

describe("leanFetch where it once differed from Node's fetch, through the SDKs", () => {
  it("should send an Ollama header value with a trailing newline (a key read from a file) as Node's fetch does", async () => {
    server.handle((request, response) => {
      response.writeHead(200, { "content-type": "application/json" });
      response.end([okOllama.create!.body].flat().join(""));
    });
    const results: Record<string, unknown> = {};
    for (const [name, f] of transports)
      results[name] = await outcome(ollama(f, { headers: { Authorization: "Bearer secret-key\n" } }), "create");
    expect(results.node).toEqual({ text: "hi there" });
    expect(results.lean).toEqual(results.node);
  });

  it("should report the server's own reason phrase for an empty Ollama error, as Node's fetch does", async () => {
    server.handle((_request, response) => {
      response.writeHead(503, "Model Is Loading", { "content-type": "text/plain" });
      response.end();
    });
    const results: Record<string, unknown> = {};
    for (const [name, f] of transports) results[name] = await outcome(ollama(f), "create");
    expect((results.node as { message: string }).message).toContain("Model Is Loading");
    expect(results.lean).toEqual(results.node);
  });

  it.each(["create", "createStream"] as const)(
    "should read an OpenAI response header with a non-UTF-8 byte (latin1 'é') as Node's fetch does (%s)",
    async (mode) => {
      server.handle((request, response) => {
        const answer = request.json?.stream ? okOpenAI.stream! : okOpenAI.create!;
        response.setHeader("x-gateway-note", "r\u00e9gion eu"); // Node writes this as latin1: one 0xE9 byte
        response.writeHead(answer.status ?? 200, answer.headers ?? {});
        response.end([answer.body].flat().join(""));
      });
      const results: Record<string, unknown> = {};
      for (const [name, f] of transports) results[name] = await outcome(openai(f), mode);
      expect(results.node).toEqual({ text: "hi there" });
      expect(results.lean).toEqual(results.node);
    },
  );

  it("should send an OpenAI request answered by a 307 to the original endpoint once, as Node's fetch does", async () => {
    const counts: Record<string, number> = {};
    for (const [name, f] of transports) {
      server.requests.length = 0;
      server.handle((request, response) => {
        if (request.url.startsWith("/v1/")) {
          response.writeHead(307, { location: request.url.replace("/v1/", "/v2/") });
          return void response.end();
        }
        response.writeHead(200, okOpenAI.create!.headers ?? {});
        response.end([okOpenAI.create!.body].flat().join(""));
      });
      expect(await outcome(openai(f), "create")).toEqual({ text: "hi there" });
      counts[name] = server.requests.filter((request) => request.url.startsWith("/v1/")).length;
    }
    expect(counts.node).toBe(1);
    expect(counts.lean).toBe(counts.node); // each POST to /v1 is a generation the gateway may bill or run
  });

  it("should send a request answered by a 300 with a Location (not a redirect fetch follows) once", async () => {
    const counts: Record<string, number> = {};
    for (const [name, f] of transports) {
      server.requests.length = 0;
      server.handle((_request, response) => {
        response.writeHead(300, { location: "/elsewhere", "content-type": "application/json" });
        response.end('{"error":"pick one"}');
      });
      const response = await f(`${server.url}/api/chat`, { method: "POST", body: "{}" });
      expect(response.status).toBe(300);
      counts[name] = server.requests.length;
    }
    expect(counts.lean).toBe(counts.node);
  });

  it("should use a global dispatcher built with a factory (custom pools), as Node's fetch does", async () => {
    server.handle((_request, response) => sendJSON(response, 200, { ok: true }));
    const require = createRequire(import.meta.url);
    const Agent = require("undici/lib/dispatcher/agent.js");
    const Pool = require("undici/lib/dispatcher/pool.js");
    const used: string[] = [];
    const configured = new Agent({
      factory: (origin: string, opts: object) => (used.push(origin), new Pool(origin, opts)),
    });
    await withGlobalDispatcher(configured, async () => {
      const response = await leanFetch(`${server.url}/via-factory`);
      expect(await response.json()).toEqual({ ok: true });
      expect(used).toEqual([server.url]);
    });
  });

  it("should hand back a status outside 200-599 as a Response, as Node's fetch does", async () => {
    const raw = await rawServer(
      "HTTP/1.1 999 Request Denied\r\ncontent-type: text/plain\r\ncontent-length: 6\r\n\r\ndenied",
    );
    try {
      const node = await nodeFetch(`${raw.url}/x`);
      expect(node.status).toBe(999);
      const lean = await leanFetch(`${raw.url}/x`).catch((error: unknown) => error);
      expect(lean).toBeInstanceOf(Response);
    } finally {
      raw.server.close();
    }
  });
});

/** A TCP server answering every request with the same raw bytes. */
async function rawServer(reply: string) {
  const server = createNetServer((socket) => {
    socket.once("data", () => socket.end(reply));
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  return { server, url: `http://127.0.0.1:${(server.address() as AddressInfo).port}` };
}

describe("leanFetch on a redirect", () => {
  it("should turn a POST answered by a 301 or 303 into a GET without body headers, and drop Authorization across origins, as fetch does", async () => {
    const other = server.url.replace("127.0.0.1", "localhost");
    for (const status of [301, 303, 307]) {
      const seen: Record<string, unknown> = {};
      for (const [name, f] of transports) {
        server.requests.length = 0;
        server.handle((request, response) => {
          if (request.url === "/from") {
            response.writeHead(status, { location: `${other}/to` });
            return void response.end();
          }
          sendJSON(response, 200, {
            method: request.method,
            type: request.headers["content-type"] ?? null,
            auth: request.headers.authorization ?? null,
            body: request.body,
          });
        });
        const response = await f(`${server.url}/from`, {
          method: "POST",
          headers: { "content-type": "application/json", authorization: "Bearer k" },
          body: '{"a":1}',
        });
        seen[name] = {
          json: await response.json(),
          url: response.url,
          redirected: response.redirected,
          hits: server.requests.length,
        };
      }
      expect(seen.lean, String(status)).toEqual(seen.node);
    }
  });
});

describe("leanFetch on what fetch normalizes or refuses", () => {
  it("should send a standard method written in lower case upper-cased, as fetch does", async () => {
    server.handle((request, response) => sendJSON(response, 200, { method: request.method }));
    for (const [, f] of transports)
      expect(await (await f(`${server.url}/m`, { method: "post", body: "{}" })).json()).toEqual({ method: "POST" });
  });

  it("should refuse a URL with credentials with fetch's TypeError, sending nothing", async () => {
    const withCredentials = server.url.replace("http://", "http://user:secret@");
    const errors: unknown[] = [];
    for (const [, f] of transports) errors.push(await f(`${withCredentials}/c`).catch((error: unknown) => error));
    expect(errors[0]).toBeInstanceOf(TypeError);
    expect((errors[0] as Error).message).toBe((errors[1] as Error).message);
    expect(server.requests).toHaveLength(0);
  });
});
