import { createServer as createHttp1Server } from "node:http";
import type { IncomingMessage, ServerResponse } from "node:http";
import { createServer as createHttp2Server } from "node:http2";
import type { Http2ServerRequest, Http2ServerResponse } from "node:http2";
import type { AddressInfo } from "node:net";
import { getEventListeners } from "node:events";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { AzureOpenAIChatModel } from "../../src/adapters/azure-openai/index.js";
import { BedrockChatModel } from "../../src/adapters/bedrock/index.js";
import { OllamaChatModel } from "../../src/adapters/ollama/index.js";
import { OpenAIChatModel } from "../../src/adapters/openai/index.js";
import type { ChatModel, ChatModelInput } from "../../src/index.js";
import { encodeEvents } from "../support/aws-event-stream.js";
import { fakeCredentials } from "../support/bedrock-loopback.js";

type Response = ServerResponse | Http2ServerResponse;
type Behaviour = "hang" | "stall";

/** A server that, per request, never answers ("hang") or sends headers and a first piece then stalls ("stall"); records when each request's response closed. */
interface ProbeServer {
  url: string;
  opened: number;
  closedAt: number[];
  behaviour: Behaviour;
  close(): Promise<void>;
}

const openAIHead = `data: ${JSON.stringify({ id: "c", object: "chat.completion.chunk", created: 1, model: "m", choices: [{ index: 0, delta: { role: "assistant", content: "Hel" }, finish_reason: null }] })}\n\n`;
const ollamaHead = `${JSON.stringify({ model: "llama3.2", created_at: "2025-01-01T00:00:00Z", message: { role: "assistant", content: "Hel" }, done: false })}\n`;
const bedrockHead = Buffer.from(
  encodeEvents([
    { messageStart: { role: "assistant" } },
    { contentBlockDelta: { contentBlockIndex: 0, delta: { text: "Hel" } } },
  ]),
);

function onRequest(probe: ProbeServer, request: IncomingMessage | Http2ServerRequest, response: Response): void {
  probe.opened++;
  response.on("close", () => probe.closedAt.push(performance.now()));
  request.resume();
  request.on("end", () => {
    if (probe.behaviour === "hang") return;
    const url = request.url ?? "";
    if (url.startsWith("/api/")) {
      (response as ServerResponse).writeHead(200, { "content-type": "application/x-ndjson" });
      (response as ServerResponse).write(ollamaHead);
    } else if (url.startsWith("/model/")) {
      (response as Http2ServerResponse).writeHead(200, { "content-type": "application/vnd.amazon.eventstream" });
      (response as Http2ServerResponse).write(bedrockHead);
    } else {
      (response as ServerResponse).writeHead(200, { "content-type": "text/event-stream" });
      (response as ServerResponse).write(openAIHead);
    }
  });
}

async function startProbe(protocol: "http1" | "http2"): Promise<ProbeServer> {
  const probe: ProbeServer = { url: "", opened: 0, closedAt: [], behaviour: "hang", close: async () => undefined };
  if (protocol === "http1") {
    const server = createHttp1Server((request, response) => onRequest(probe, request, response));
    const sockets = new Set<import("node:net").Socket>();
    server.on("connection", (socket) => {
      sockets.add(socket);
      socket.on("close", () => sockets.delete(socket));
    });
    await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
    probe.url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
    probe.close = () => {
      for (const socket of sockets) socket.destroy();
      return new Promise((resolve) => server.close(() => resolve()));
    };
  } else {
    const server = createHttp2Server((request, response) => onRequest(probe, request, response));
    const sessions = new Set<import("node:http2").Http2Session>();
    server.on("session", (session) => {
      sessions.add(session);
      session.on("close", () => sessions.delete(session));
    });
    await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
    probe.url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
    probe.close = () => {
      for (const session of sessions) session.destroy();
      return new Promise((resolve) => server.close(() => resolve()));
    };
  }
  return probe;
}

let http1: ProbeServer;
let http2: ProbeServer;
beforeAll(async () => {
  [http1, http2] = await Promise.all([startProbe("http1"), startProbe("http2")]);
});
afterAll(async () => {
  await Promise.all([http1.close(), http2.close()]);
});

const noRetry = { retry: { maxRetries: 0 } };
const adapters: { name: string; server: () => ProbeServer; model: () => ChatModel }[] = [
  {
    name: "openai",
    server: () => http1,
    model: () => new OpenAIChatModel("gpt-4o-mini", { baseURL: `${http1.url}/v1`, apiKey: "sk-probe", ...noRetry }),
  },
  {
    name: "azure-openai",
    server: () => http1,
    model: () =>
      new AzureOpenAIChatModel("gpt-4o", {
        endpoint: http1.url,
        apiKey: "sk-probe",
        apiVersion: "2024-12-01-preview",
        ...noRetry,
      }),
  },
  {
    name: "ollama",
    server: () => http1,
    model: () => new OllamaChatModel("llama3.2", { host: http1.url, ...noRetry }),
  },
  {
    name: "bedrock",
    server: () => http2,
    model: () =>
      new BedrockChatModel("us.amazon.nova-micro-v1:0", {
        region: "us-east-1",
        endpoint: http2.url,
        credentials: fakeCredentials,
        ...noRetry,
      }),
  },
];

async function until(condition: () => boolean, ms = 2000): Promise<void> {
  const start = performance.now();
  while (!condition()) {
    if (performance.now() - start > ms) throw new Error("timed out waiting");
    await new Promise((resolve) => setTimeout(resolve, 2));
  }
}

/** Runs a call in a mode; returns its error (or "resolved"). */
async function settle(
  model: ChatModel,
  input: ChatModelInput,
  mode: "create" | "createStream",
): Promise<Error | string> {
  try {
    if (mode === "create") await model.create(input);
    else {
      const stream = model.createStream(input);
      for await (const _chunk of stream) void _chunk;
      await stream.final();
    }
    return "resolved";
  } catch (error) {
    return error as Error;
  }
}

function input(extra: Partial<ChatModelInput> = {}): ChatModelInput {
  return { messages: [{ role: "user", content: "hi" }], ...extra };
}

/** Loads each adapter's SDK and keelson's pipeline first, so a short timeout measures the request alone. */
beforeAll(async () => {
  for (const adapter of adapters) {
    const probe = adapter.server();
    probe.behaviour = "hang";
    const opened = probe.opened;
    const controller = new AbortController();
    const pending = settle(adapter.model(), input({ signal: controller.signal }), "create");
    await until(() => probe.opened > opened, 10_000);
    controller.abort();
    await pending;
  }
});

describe.each(adapters)("$name: aborts and timeouts release the request", ({ server, model }) => {
  describe.each(["create", "createStream"] as const)("%s", (mode) => {
    it.each(["hang", "stall"] as const)(
      "should end with TimeoutError on a %s server and have the server see the request closed",
      async (behaviour) => {
        const probe = server();
        probe.behaviour = behaviour;
        const closedBefore = probe.closedAt.length;
        const started = performance.now();
        const error = await settle(model(), input({ timeout: 150 }), mode);
        const ended = performance.now();
        expect(error).toMatchObject({ name: "TimeoutError" });
        expect(ended - started).toBeLessThan(600);
        await until(() => probe.closedAt.length > closedBefore, 1000);
        expect(probe.closedAt.at(-1)! - ended).toBeLessThan(200);
      },
    );

    it.each(["hang", "stall"] as const)(
      "should end with AbortError on a %s server, close the request and leave no listener on the caller's signal",
      async (behaviour) => {
        const probe = server();
        probe.behaviour = behaviour;
        const closedBefore = probe.closedAt.length;
        const openedBefore = probe.opened;
        const controller = new AbortController();
        const pending = settle(model(), input({ signal: controller.signal }), mode);
        await until(() => probe.opened > openedBefore);
        await new Promise((resolve) => setTimeout(resolve, 30));
        const abortedAt = performance.now();
        controller.abort();
        const error = await pending;
        expect(error).toMatchObject({ name: "AbortError" });
        expect(performance.now() - abortedAt).toBeLessThan(200);
        await until(() => probe.closedAt.length > closedBefore, 1000);
        expect(getEventListeners(controller.signal, "abort")).toHaveLength(0);
      },
    );
  });

  it("should leave no listener on a long-lived caller signal after many completed-by-timeout calls", async () => {
    const probe = server();
    probe.behaviour = "hang";
    const longLived = new AbortController();
    for (let index = 0; index < 15; index++) {
      const error = await settle(model(), input({ signal: longLived.signal, timeout: 20 }), "create");
      expect(error).toMatchObject({ name: "TimeoutError" });
    }
    expect(getEventListeners(longLived.signal, "abort")).toHaveLength(0);
  });
});
