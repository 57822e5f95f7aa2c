/**
 * Lean fetch against Node's fetch over the recorded provider traffic in ../shared/fixtures: every
 * OpenAI, Azure and Ollama response recorded there (status line, headers, body), served as
 * recorded through a loopback server in several framings (content-length, chunked in one write,
 * line by line, 7-byte pieces that split UTF-8 characters, gzip always, gzip when asked), to
 * each adapter once on keelson's default transport (lean fetch) and once on Node's fetch (an
 * `openai` client of the SDK's own; `fetch: globalThis.fetch` for Ollama), in create and
 * createStream. The caller must see the same thing either way: the output, the chunks, or the error.
 */
import { createServer } from "node:http";
import type { IncomingMessage, Server, ServerResponse } from "node:http";
import { createServer as createNetServer } from "node:net";
import type { AddressInfo, Server as NetServer, Socket } from "node:net";
import { constants as zlibConstants, createGzip } from "node:zlib";
import OpenAI, { AzureOpenAI } from "openai";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { AzureOpenAIChatModel } from "../../src/adapters/azure-openai/index.js";
import { OllamaChatModel } from "../../src/adapters/ollama/index.js";
import { OpenAIChatModel } from "../../src/adapters/openai/index.js";
import type { ChatModel, ChatModelChunk, ChatModelInput } from "../../src/index.js";
import { toStreamParts } from "../adapters/ollama/ollama-harness.js";
import { ssePayloads } from "../support/openai-wire.js";
import {
  hasSharedFixtures,
  missingFixturesMessage,
  readCassette,
  readFixture,
  readJSONFixture,
} from "../support/shared-fixtures.js";

type Adapter = "openai" | "azure" | "ollama";
type Arm = "lean" | "node";

/** One recorded answer, as it goes on the wire. */
interface Wire {
  status: number;
  statusMessage: string;
  /** Recorded headers as name/value pairs (repeats kept), without the framing ones. */
  headers: [string, string][];
  body: Buffer;
  /** For a cassette: every recorded header as recorded (content-length, transfer-encoding and connection too), and a body of the recorded length. */
  recorded?: { headers: [string, string][]; body: Buffer };
}

interface Case {
  /** fixture file(s) it comes from, and how it was served */
  name: string;
  adapter: Adapter;
  /** What to serve: the same for both modes, or per mode (a stream derived as the existing suites derive it). */
  wire: Wire | ((stream: boolean) => Wire);
  input: Partial<ChatModelInput>;
}

const framing = ["length", "chunked", "lines", "bytes7", "gzip", "gzip-if-asked", "recorded-raw"] as const;
type Framing = (typeof framing)[number];
const modes = ["create", "createStream"] as const;
type Mode = (typeof modes)[number];

// ---- the fixtures -------------------------------------------------------------------------------

const framingHeaders = new Set(["content-length", "transfer-encoding", "connection", "content-encoding"]);

/** A cassette's status line and headers, with the body from its sibling file. */
function fromCassette(cassette: string, bodyFile: string): Wire {
  const { response } = readCassette(cassette)[0]!;
  const headers: [string, string][] = [];
  for (const [name, values] of Object.entries(response.headers)) {
    if (framingHeaders.has(name.toLowerCase())) continue;
    for (const value of values) headers.push([name, value]);
  }
  const file = readFixture(bodyFile);
  const all = Object.entries(response.headers).flatMap(([name, values]) =>
    values.map((value): [string, string] => [name, value]),
  );
  // The recorder re-serialized JSON bodies: of the shapes a server writes, the one of the recorded length.
  const length = Number(response.headers["content-length"]?.[0] ?? Number.NaN);
  let body = file;
  if (bodyFile.endsWith(".json") && !Number.isNaN(length)) {
    const value: unknown = JSON.parse(file);
    const shapes = [
      file,
      JSON.stringify(value, null, 2),
      spaced(value),
      JSON.stringify(value),
      `${JSON.stringify(value)}\n`,
    ];
    body = shapes.find((shape) => Buffer.byteLength(shape) === length) ?? file;
  }
  return {
    status: response.status.code,
    statusMessage: response.status.message ?? "",
    headers,
    body: Buffer.from(file, "utf8"),
    recorded: { headers: all, body: Buffer.from(body, "utf8") },
  };
}

/** JSON as Python's json.dumps writes it (", " and ": "). */
function spaced(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(spaced).join(", ")}]`;
  if (value !== null && typeof value === "object")
    return `{${Object.entries(value)
      .map(([k, v]) => `${JSON.stringify(k)}: ${spaced(v)}`)
      .join(", ")}}`;
  return JSON.stringify(value);
}

const reasonPhrases: Record<number, string> = {
  200: "OK",
  400: "Bad Request",
  404: "Not Found",
  500: "Internal Server Error",
};
function plain(status: number, contentType: string, body: string): Wire {
  return {
    status,
    statusMessage: reasonPhrases[status]!,
    headers: [["content-type", contentType]],
    body: Buffer.from(body, "utf8"),
  };
}

const tool = (name: string, properties: Record<string, object> = {}, required: string[] = Object.keys(properties)) => ({
  name,
  inputSchema: { type: "object", properties, required },
});
const str = { type: "string" };
/** Every tool any recording calls, so each call validates. */
const tools = [
  tool("get_capital", { country: str }),
  tool("delete_file", { path: str }),
  tool("create_file", { path: str }),
  tool("get_country"),
  tool("get_product_name"),
  tool("get_weather", { city: str }),
  tool("get_current_weather", { location: str, format: { type: "string", enum: ["celsius", "fahrenheit"] } }),
  tool("final_result", { city: str, country: str }),
  tool("LLM_Tool_RAG", { term: str, vector: str }),
];
const withTools: Partial<ChatModelInput> = { tools, parallelToolCalls: true };
const cityFormat = { type: "object", properties: { city: str, country: str }, required: ["city", "country"] };
const petFormat = {
  type: "object",
  properties: { name: str, animal: str, age: { type: "integer" } },
  required: ["name", "animal", "age"],
};
const ageFormat = {
  type: "object",
  properties: { age: { type: "integer" }, available: { type: "boolean" } },
  required: ["age", "available"],
};

function cases(): Case[] {
  const list: Case[] = [];
  const openAICassette = (base: string, ext: "json" | "sse") =>
    fromCassette(`openai/${base}.cassette.yaml`, `openai/${base}.${ext}`);
  for (const base of [
    "chat-nonstream-text",
    "chat-nonstream-one-tool-call",
    "chat-nonstream-two-parallel-tool-calls",
    "chat-error-400-invalid-request-param",
    "chat-error-400-unsupported-value",
    "chat-error-404-model-not-found",
  ]) {
    list.push({ name: `openai/${base}`, adapter: "openai", wire: openAICassette(base, "json"), input: withTools });
  }
  for (const base of [
    "chat-stream-text",
    "chat-stream-two-parallel-tool-calls",
    "chat-stream-tool-call-args-split-across-chunks",
  ]) {
    list.push({ name: `openai/${base}`, adapter: "openai", wire: openAICassette(base, "sse"), input: withTools });
  }

  const azureText = fromCassette(
    "azure-openai/chat-text-nonstream-content-filter.cassette.yaml",
    "azure-openai/chat-text-nonstream-content-filter.json",
  );
  list.push({
    name: "azure-openai/chat-text-nonstream-content-filter",
    adapter: "azure",
    wire: azureText,
    input: withTools,
  });
  const azureStream = plain(
    200,
    "text/event-stream; charset=utf-8",
    ssePayloads(readFixture("azure-openai/chat-stream-text-content-filter.chunks.ndjson").trim().split("\n")),
  );
  list.push({
    name: "azure-openai/chat-stream-text-content-filter (SSE-framed)",
    adapter: "azure",
    wire: azureStream,
    input: withTools,
  });
  list.push({
    name: "azure-openai/chat-error-400-content-filter.issue-openai-dotnet-55 (400)",
    adapter: "azure",
    wire: plain(
      400,
      "application/json",
      readFixture("azure-openai/chat-error-400-content-filter.issue-openai-dotnet-55.json"),
    ),
    input: withTools,
  });

  // Ollama's OpenAI-compatible endpoint, through the OpenAI adapter.
  const v1 = (base: string) => fromCassette(`ollama/${base}.cassette.yaml`, `ollama/${base}.json`);
  list.push({
    name: "ollama/v1-chat-completions-json-schema-with-reasoning",
    adapter: "openai",
    wire: v1("v1-chat-completions-json-schema-with-reasoning"),
    input: { responseFormat: cityFormat },
  });
  list.push({
    name: "ollama/v1-chat-completions-json-object-with-reasoning",
    adapter: "openai",
    wire: v1("v1-chat-completions-json-object-with-reasoning"),
    input: { responseFormat: petFormat },
  });
  list.push({
    name: "ollama/v1-chat-completions-tool-call-with-reasoning",
    adapter: "openai",
    wire: v1("v1-chat-completions-tool-call-with-reasoning"),
    input: withTools,
  });
  for (const status of [400, 500]) {
    list.push({
      name: `ollama/v1-chat-completions-error-think-value-unsupported.issue-12561 (${status})`,
      adapter: "openai",
      wire: plain(
        status,
        "application/json; charset=utf-8",
        readFixture("ollama/v1-chat-completions-error-think-value-unsupported.issue-12561.json"),
      ),
      input: withTools,
    });
  }

  // Native /api/chat: each body as recorded in both modes, and for createStream also as Ollama streams it.
  const ollamaJSON = "application/json; charset=utf-8";
  const nativeBodies: [string, Partial<ChatModelInput>][] = [
    ["api-chat-nonstream-one-tool-call.docs.json", withTools],
    ["api-chat-nonstream-one-tool-call-two-args.docs.json", withTools],
    ["api-chat-nonstream-text-after-tool-result.docs.json", withTools],
    ["api-chat-nonstream-format-json-schema.docs.json", { responseFormat: ageFormat }],
    ["api-chat-nonstream-tool-call-as-json-in-content.issue-11185.json", withTools],
    ["api-chat-nonstream-tool-call-as-json-in-content.issue-11185.json", { ...withTools, toolChoice: "required" }],
  ];
  for (const [file, input] of nativeBodies) {
    const label = `ollama/${file}${input.toolChoice ? " (toolChoice required)" : ""}`;
    list.push({ name: label, adapter: "ollama", wire: plain(200, ollamaJSON, readFixture(`ollama/${file}`)), input });
    const derived = (stream: boolean) =>
      stream
        ? plain(
            200,
            "application/x-ndjson",
            toStreamParts(readJSONFixture(`ollama/${file}`))
              .map((part) => `${JSON.stringify(part)}\n`)
              .join(""),
          )
        : plain(200, ollamaJSON, readFixture(`ollama/${file}`));
    list.push({ name: `${label} (stream derived)`, adapter: "ollama", wire: derived, input });
  }
  list.push({
    name: "ollama/api-chat-stream-tool-call.docs.ndjson",
    adapter: "ollama",
    wire: plain(200, "application/x-ndjson", readFixture("ollama/api-chat-stream-tool-call.docs.ndjson")),
    input: withTools,
  });

  // Ollama's 500s quoted in issue threads.
  const quotes = readJSONFixture<{ thread: string; posted_output: string }[]>(
    "malformed-tool-calls/issue-thread-quotes.json",
  );
  const quote = (thread: string) => quotes.find((entry) => entry.thread === thread)!.posted_output;
  const parseError = /ResponseError: (.*) \(status code: 500\)$/.exec(quote("ollama/ollama#12064"))![1]!;
  list.push({
    name: "malformed-tool-calls ollama#12064 (500 {error})",
    adapter: "ollama",
    wire: plain(500, ollamaJSON, JSON.stringify({ error: parseError })),
    input: withTools,
  });
  // The body as posted (cut short in the post itself): JSON that does not parse.
  list.push({
    name: "malformed-tool-calls ollama#17638 (500, truncated JSON)",
    adapter: "ollama",
    wire: plain(500, ollamaJSON, quote("ollama/ollama#17638")),
    input: withTools,
  });
  return list;
}

// ---- the server ---------------------------------------------------------------------------------

let server: Server;
let rawServer: NetServer;
let baseURL = "";
let rawURL = "";
/** Each request's accept-encoding: Node's fetch asks for gzip, lean fetch for nothing, which tells the transports apart. */
const received: (string | undefined)[] = [];
const sockets = new Set<Socket>();
let answer: (request: IncomingMessage, response: ServerResponse) => Promise<void> = async (_request, response) =>
  void response.end();

const tick = () => new Promise((resolve) => setImmediate(resolve));

function pieces(body: Buffer, how: Framing): Buffer[] {
  if (how === "length" || how === "chunked") return [body];
  if (how === "bytes7") {
    const out: Buffer[] = [];
    for (let i = 0; i < body.length; i += 7) out.push(body.subarray(i, i + 7));
    return out;
  }
  const out: Buffer[] = [];
  let start = 0;
  for (let i = 0; i < body.length; i++) {
    if (body[i] === 0x0a) {
      out.push(body.subarray(start, i + 1));
      start = i + 1;
    }
  }
  if (start < body.length) out.push(body.subarray(start));
  return out;
}

async function serve(request: IncomingMessage, response: ServerResponse, wire: Wire, how: Framing): Promise<void> {
  const gzip =
    how === "gzip" || (how === "gzip-if-asked" && /\bgzip\b/.test(String(request.headers["accept-encoding"] ?? "")));
  const flat = wire.headers.flat();
  if (how === "length") flat.push("content-length", String(wire.body.length));
  if (gzip) flat.push("content-encoding", "gzip");
  response.writeHead(wire.status, wire.statusMessage, flat);
  const parts = pieces(wire.body, how === "gzip-if-asked" ? "lines" : how === "gzip" ? "lines" : how);
  if (!gzip) {
    for (const part of parts) {
      response.write(part);
      if (parts.length > 1) await tick();
    }
    response.end();
    return;
  }
  const zip = createGzip();
  zip.on("data", (data: Buffer) => response.write(data));
  for (const part of parts) {
    zip.write(part);
    await new Promise<void>((resolve) => zip.flush(zlibConstants.Z_SYNC_FLUSH, () => resolve()));
    await tick();
  }
  await new Promise<void>((resolve) => zip.end(() => resolve()));
  await new Promise<void>((resolve) => (zip.readableEnded ? resolve() : zip.once("end", () => resolve())));
  response.end();
}

/**
 * The cassette's status line and headers byte for byte as recorded (content-length beside
 * transfer-encoding: chunked included), on a plain TCP server that keeps the connection as any
 * HTTP/1.1 server would; the body chunked when the headers say so, else as long as content-length says.
 */
function rawResponse(wire: Wire): Buffer[] {
  const { headers, body } = wire.recorded ?? {
    headers: [...wire.headers, ["content-length", String(wire.body.length)] as [string, string]],
    body: wire.body,
  };
  const head =
    [`HTTP/1.1 ${wire.status} ${wire.statusMessage}`, ...headers.map(([name, value]) => `${name}: ${value}`)].join(
      "\r\n",
    ) + "\r\n\r\n";
  const chunked = headers.some(([name, value]) => name.toLowerCase() === "transfer-encoding" && /chunked/i.test(value));
  if (!chunked) return [Buffer.from(head), body];
  const out = [Buffer.from(head)];
  for (const part of pieces(body, "lines"))
    out.push(Buffer.concat([Buffer.from(`${part.length.toString(16)}\r\n`), part, Buffer.from("\r\n")]));
  out.push(Buffer.from("0\r\n\r\n"));
  return out;
}

let rawWire: Wire | undefined;

/** Reads requests off a connection (headers, then content-length bytes of body) and answers each with rawWire. */
function rawConnection(socket: Socket): void {
  socket.setNoDelay(true);
  sockets.add(socket);
  socket.on("close", () => sockets.delete(socket));
  socket.on("error", () => undefined);
  let buffered = Buffer.alloc(0);
  let busy = false;
  const next = async (): Promise<void> => {
    if (busy) return;
    const end = buffered.indexOf("\r\n\r\n");
    if (end < 0) return;
    const head = buffered.subarray(0, end).toString("latin1");
    const length = Number(/\r\ncontent-length:\s*(\d+)/i.exec(head)?.[1] ?? 0);
    if (buffered.length < end + 4 + length) return;
    buffered = buffered.subarray(end + 4 + length);
    received.push(/\r\naccept-encoding:\s*([^\r]*)/i.exec(head)?.[1]);
    busy = true;
    for (const part of rawResponse(rawWire!)) {
      if (socket.destroyed) return;
      socket.write(part);
      await tick();
    }
    busy = false;
    await next();
  };
  socket.on("data", (data: Buffer) => {
    buffered = Buffer.concat([buffered, data]);
    void next();
  });
}

// ---- the models ---------------------------------------------------------------------------------

const apiKey = "sk-test-SENTINEL-123";
const apiVersion = "2024-12-01-preview";

function model(adapter: Adapter, arm: Arm, baseURL: string): ChatModel {
  // One retry, at once: a retryable error is asked for twice on each transport (the connection reused after an error body).
  const retry = { maxRetries: 1, initialDelayMs: 1, maxDelayMs: 1 };
  if (adapter === "openai") {
    const url = `${baseURL}/v1`;
    return arm === "lean"
      ? new OpenAIChatModel("gpt-4o", { baseURL: url, apiKey, retry })
      : new OpenAIChatModel("gpt-4o", { client: new OpenAI({ apiKey, baseURL: url, maxRetries: 0 }), retry });
  }
  if (adapter === "azure") {
    return arm === "lean"
      ? new AzureOpenAIChatModel("gpt-4o", { endpoint: baseURL, apiKey, apiVersion, retry })
      : new AzureOpenAIChatModel("gpt-4o", {
          client: new AzureOpenAI({ endpoint: baseURL, deployment: "gpt-4o", apiKey, apiVersion, maxRetries: 0 }),
          retry,
        });
  }
  return arm === "lean"
    ? new OllamaChatModel("llama3.2", { host: baseURL, retry })
    : new OllamaChatModel("llama3.2", { host: baseURL, retry, fetch: globalThis.fetch });
}

// ---- what the caller gets -----------------------------------------------------------------------

interface Outcome {
  output?: unknown;
  error?: unknown;
  chunks: unknown[];
}

function describeError(error: unknown): unknown {
  if (!(error instanceof Error)) return { thrown: error };
  const e = error as Error & Record<string, unknown>;
  const cause = e.cause as (Error & Record<string, unknown>) | undefined;
  return {
    class: e.constructor.name,
    name: e.name,
    message: e.message,
    reason: e.reason,
    statusCode: e.statusCode,
    isRetryable: e.isRetryable,
    code: e.code,
    retryAfterMs: e.retryAfterMs,
    partialOutput: e.partialOutput,
    cause:
      cause instanceof Error
        ? {
            class: cause.constructor.name,
            name: cause.name,
            message: cause.message,
            status: cause.status ?? cause.status_code,
          }
        : cause,
  };
}

/** Ollama's tool calls get random `call_` ids: the same placeholder on both arms. */
function normalize(value: unknown, adapter: Adapter): unknown {
  const text = JSON.stringify(value ?? null);
  return JSON.parse(adapter === "ollama" ? text.replace(/call_[a-z0-9]{8}\b/g, "call_<generated>") : text);
}

async function outcome(subject: ChatModel, input: ChatModelInput, mode: Mode): Promise<Outcome> {
  const chunks: ChatModelChunk[] = [];
  try {
    if (mode === "create") {
      const output = await subject.create(input);
      return { output: { ...output }, chunks };
    }
    const stream = subject.createStream(input);
    for await (const chunk of stream) chunks.push(chunk);
    const output = await stream.final();
    return { output: { ...output }, chunks };
  } catch (error) {
    return { error: describeError(error), chunks };
  }
}

async function run(testCase: Case, mode: Mode, how: Framing, arm: Arm): Promise<Outcome> {
  const wire = typeof testCase.wire === "function" ? testCase.wire(mode === "createStream") : testCase.wire;
  rawWire = wire;
  answer = async (request, response) => {
    for await (const _ of request) void _;
    received.push(request.headers["accept-encoding"]);
    await serve(request, response, wire, how);
  };
  const input = {
    messages: [{ role: "user" as const, content: "What is the capital of France?" }],
    ...testCase.input,
  } as ChatModelInput;
  const url = how === "recorded-raw" ? rawURL : baseURL;
  return normalize(await outcome(model(testCase.adapter, arm, url), input, mode), testCase.adapter) as Outcome;
}

// ---- the sweep ----------------------------------------------------------------------------------

describe.skipIf(!hasSharedFixtures)(
  hasSharedFixtures ? "lean fetch against Node's fetch, over the recorded traffic" : missingFixturesMessage,
  () => {
    if (!hasSharedFixtures) return;
    beforeAll(async () => {
      // The Ollama SDK warns on the console for each line of a JSON body read as a stream.
      vi.spyOn(console, "warn").mockImplementation(() => undefined);
      server = createServer((request, response) => {
        answer(request, response).catch((error: unknown) => {
          response.destroy(error as Error);
        });
      });
      server.on("connection", (socket) => {
        socket.setNoDelay(true);
        sockets.add(socket);
        socket.on("close", () => sockets.delete(socket));
      });
      await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
      baseURL = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
      rawServer = createNetServer(rawConnection);
      await new Promise<void>((resolve) => rawServer.listen(0, "127.0.0.1", resolve));
      rawURL = `http://127.0.0.1:${(rawServer.address() as AddressInfo).port}`;
    });
    afterAll(async () => {
      vi.restoreAllMocks();
      for (const socket of sockets) socket.destroy();
      await new Promise((resolve) => server.close(resolve));
      await new Promise((resolve) => rawServer.close(resolve));
    });

    describe.each(cases())("$name", (testCase) => {
      it.each(modes.flatMap((mode) => framing.map((how) => ({ mode, how }))))("$mode, $how", async ({ mode, how }) => {
        received.length = 0;
        const lean = await run(testCase, mode, how, "lean");
        const leanAsked = received.splice(0);
        const node = await run(testCase, mode, how, "node");
        // Each arm went on its own transport (a fallback to fetch would make the comparison empty).
        expect(leanAsked.length).toBeGreaterThan(0);
        expect(leanAsked.every((value) => value === undefined)).toBe(true);
        expect(received.length).toBeGreaterThan(0);
        expect(received.every((value) => value?.includes("gzip"))).toBe(true);
        expect(leanAsked.length).toBe(received.length);
        expect(lean).toEqual(node);
      });
    });
  },
);
