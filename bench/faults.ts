import { existsSync, readFileSync, writeFileSync } from "node:fs";
import { createServer, type IncomingMessage, type ServerResponse } from "node:http";
import { createServer as createHttp2Server, type Http2ServerResponse, type Http2Session } from "node:http2";
import type { AddressInfo } from "node:net";
import { fileURLToPath } from "node:url";
import { gzipSync } from "node:zlib";
import { EventStreamCodec } from "@smithy/eventstream-codec";
import { AnthropicChatModel } from "../src/adapters/anthropic/index.js";
import { AzureOpenAIChatModel } from "../src/adapters/azure-openai/index.js";
import { BedrockChatModel } from "../src/adapters/bedrock/index.js";
import { OllamaChatModel } from "../src/adapters/ollama/index.js";
import { OpenAIChatModel, OpenAIResponsesChatModel } from "../src/adapters/openai/index.js";
import { ChatModelError, defineTool } from "../src/index.js";
import type { ChatModel, ChatModelCache, ChatModelInput, ChatModelOutput, JSONSchema } from "../src/index.js";
import { ScriptedChatModel, streamStep, textStep, toolCallStep } from "../src/testing/index.js";

// `npm run faults`: each fault class of issue 25 tried once over a loopback server (or the scripted
// model), through the real SDKs, with what it cost: requests the server saw, ms until the call
// settled, MB of heap it grew by. `npm run faults -- --write` puts the table into docs/reliability.md.
// A report, not a test: the assertions live in test/faults and test/adapters.

type Handler = (request: IncomingMessage & { body: string }, response: ServerResponse) => void;

interface Row {
  fault: string;
  outcome: string;
  requests: number | string;
  ms: number | string;
  mb: number | string;
}

const key = "sk-FAULTS-0123456789abcdef";
const rows: Row[] = [];
let handler: Handler = (_request, response) => response.end();
let requests = 0;
const server = createServer((request, response) => {
  const chunks: Buffer[] = [];
  request.on("data", (chunk: Buffer) => chunks.push(chunk));
  request.on("end", () => {
    requests++;
    handler(Object.assign(request, { body: Buffer.concat(chunks).toString("utf8") }), response);
  });
});
await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;

// Bedrock's SDK speaks HTTP/2 (cleartext here), so it gets a server of its own, counted the same.
type Handler2 = (response: Http2ServerResponse) => void;
let handler2: Handler2 = (response) => response.end();
const sessions = new Set<Http2Session>();
const server2 = createHttp2Server((request, response) => {
  request.resume();
  request.on("end", () => {
    requests++;
    handler2(response);
  });
});
server2.on("session", (session) => {
  sessions.add(session);
  session.on("close", () => sessions.delete(session));
});
await new Promise<void>((resolve) => server2.listen(0, "127.0.0.1", resolve));
const url2 = `http://127.0.0.1:${(server2.address() as AddressInfo).port}`;
const awsSecret = "FAULTS-aws-secret-0123456789abcdef";
const bedrock = () =>
  new BedrockChatModel("us.amazon.nova-micro-v1:0", {
    region: "us-east-1",
    endpoint: url2,
    credentials: { accessKeyId: "AKIDFAULTS", secretAccessKey: awsSecret },
    ...once,
  });
const codec = new EventStreamCodec(
  (bytes: Uint8Array) => new TextDecoder().decode(bytes),
  (text: string) => new TextEncoder().encode(text),
);
/** ConverseStream events (`{ "<event-type>": payload }`) or an exception, framed as Bedrock frames them. */
function frames(...events: Record<string, unknown>[]): Buffer {
  return Buffer.concat(
    events.map((event) => {
      const [type, payload] = Object.entries(event)[0]!;
      const exception = type.endsWith("Exception");
      return codec.encode({
        headers: {
          [exception ? ":exception-type" : ":event-type"]: { type: "string", value: type },
          ":content-type": { type: "string", value: "application/json" },
          ":message-type": { type: "string", value: exception ? "exception" : "event" },
        },
        body: new TextEncoder().encode(JSON.stringify(payload)),
      });
    }),
  );
}
const json2 =
  (status: number, body: unknown, contentType = "application/json"): Handler2 =>
  (response) => {
    response.writeHead(status, { "content-type": contentType });
    response.end(typeof body === "string" ? body : JSON.stringify(body));
  };
const events2 =
  (...events: Record<string, unknown>[]): Handler2 =>
  (response) => {
    response.writeHead(200, { "content-type": "application/vnd.amazon.eventstream" });
    response.end(frames(...events));
  };

const ask: ChatModelInput = { messages: [{ role: "user", content: "hi" }] };
const once = { retry: { maxRetries: 2, initialDelayMs: 1, maxDelayMs: 1 } } as const;
const openAI = (options = {}) =>
  new OpenAIChatModel("gpt-4o-mini", { baseURL: `${url}/v1`, apiKey: key, ...once, ...options });
const ollama = () => new OllamaChatModel("llama3.2", { host: url, ...once });

function json(status: number, body: unknown, contentType = "application/json"): Handler {
  return (_request, response) => {
    response.writeHead(status, { "content-type": contentType });
    response.end(typeof body === "string" ? body : JSON.stringify(body));
  };
}
const sse = (...events: unknown[]) =>
  json(
    200,
    events.map((event) => `data: ${typeof event === "string" ? event : JSON.stringify(event)}\n\n`).join(""),
    "text/event-stream",
  );
const chunk = (delta: object, finish: string | null = null) => ({
  id: "c",
  object: "chat.completion.chunk",
  created: 1,
  model: "m",
  choices: [{ index: 0, delta, finish_reason: finish }],
});

/** A text reply, as a chat completion or its stream (as the request asks). */
function textReply(request: IncomingMessage & { body: string }, response: ServerResponse, text: string): void {
  const streamed = (JSON.parse(request.body) as { stream?: boolean }).stream === true;
  if (!streamed) {
    const message = { role: "assistant", content: text };
    return json(200, {
      id: "c",
      object: "chat.completion",
      created: 1,
      model: "m",
      choices: [{ index: 0, message, finish_reason: "stop" }],
    })(request, response);
  }
  sse(chunk({ role: "assistant", content: text }), chunk({}, "stop"), "[DONE]")(request, response);
}

/** What a settled call came to, in a few words. */
function outcomeOf(
  result: { output?: { text: string; finishReason: string }; error?: unknown },
  expectLeak?: string,
): string {
  if (result.output) return `answer (${result.output.finishReason})`;
  const error = result.error as Error & {
    reason?: string;
    kind?: string;
    code?: unknown;
    partialOutput?: { finishReason: string };
  };
  // A TypeError is keelson's answer to a caller's bad input (the schema), raised before any request.
  const typed = ChatModelError.isInstance(error)
    ? `${error.name}`
    : error instanceof TypeError
      ? "TypeError (the caller's input)"
      : `untyped ${error?.name ?? typeof error}`;
  const detail = [
    error.reason,
    error.kind,
    // keelson's own refusals by their code (the provider's codes vary by provider and say less here).
    ["response_too_large", "not_a_stream", "refused_redirect"].includes(String(error.code))
      ? `${String(error.code)}`
      : undefined,
    error.partialOutput ? `partial ${error.partialOutput.finishReason}` : undefined,
  ]
    .filter(Boolean)
    .join(", ");
  const leak =
    expectLeak !== undefined && JSON.stringify(inspectable(error)).includes(expectLeak) ? ", KEY LEAKED" : "";
  return `${typed}${detail ? ` (${detail})` : ""}, message ${error.message.length} chars${leak}`;
}

/** An error with its cause chain as plain data, for a leak check. */
function inspectable(error: unknown, depth = 0): unknown {
  if (!(error instanceof Error) || depth > 5) return String(error);
  return {
    ...error,
    message: error.message,
    stack: error.stack,
    cause: inspectable((error as { cause?: unknown }).cause, depth + 1),
  };
}

/** Heap and external memory (the buffers a body is read into live outside the heap). */
const memory = () => {
  const usage = process.memoryUsage();
  return usage.heapUsed + usage.external;
};

/** The output of the last call `run` made, when it answered. */
let lastOutput: ChatModelOutput | undefined;

async function run(fault: string, model: ChatModel, mode: "create" | "createStream", input = ask, leak?: string) {
  requests = 0;
  globalThis.gc?.();
  const heap = memory();
  const started = performance.now();
  let result: { output?: { text: string; finishReason: string }; error?: unknown };
  lastOutput = undefined;
  try {
    if (mode === "create") result = { output: await model.create(input) };
    else {
      const stream = model.createStream(input);
      for await (const _chunk of stream);
      result = { output: await stream.final() };
    }
    lastOutput = result.output as ChatModelOutput;
  } catch (error) {
    result = { error };
  }
  const ms = Math.round(performance.now() - started);
  const mb = Math.max(0, Math.round(((memory() - heap) / 1024 / 1024) * 10) / 10);
  rows.push({ fault: `${fault} (${mode})`, outcome: outcomeOf(result, leak), requests, ms, mb });
}

const nested = (depth: number, leaked: string) => {
  let body = JSON.stringify({ leaked });
  for (let level = 0; level < depth; level++) body = `{"a":${body}}`;
  return body;
};
function doubling(levels: number): JSONSchema {
  const $defs: Record<string, unknown> = {
    [`l${levels}`]: { type: "string", description: "a leaf, with a few words in it" },
  };
  for (let level = levels - 1; level >= 0; level--) {
    const next = { $ref: `#/$defs/l${level + 1}` };
    $defs[`l${level}`] = { type: "object", properties: { left: next, right: next } };
  }
  return { type: "object", properties: { tree: { $ref: "#/$defs/l0" } }, $defs };
}

// Warm-up: the adapters' and the pipeline's code loads on a first call; no row pays for it.
handler = json(500, { error: { message: "warm-up" } });
await openAI({ retry: { maxRetries: 0 } })
  .create(ask)
  .catch(() => undefined);
await ollama()
  .create(ask)
  .catch(() => undefined);
handler2 = json2(400, { message: "warm-up" });
await bedrock()
  .create(ask)
  .catch(() => undefined);
await new ScriptedChatModel([textStep("{}")], { toolChoiceSupport: ["auto", "none"] })
  .create({ ...ask, tools: [defineTool({ name: "warm", inputSchema: { type: "object" } })], toolChoice: "required" })
  .catch(() => undefined);

// Item 2: wrong-shaped JSON.
handler = json(200, {
  id: "c",
  object: "chat.completion",
  created: 1,
  model: "m",
  choices: [
    { index: 0, message: { role: "assistant", content: null, tool_calls: [null] }, finish_reason: "tool_calls" },
  ],
});
await run("OpenAI `tool_calls: [null]` in a 200", openAI(), "create");
handler = sse(chunk({ tool_calls: { index: 0 } }), chunk({}, "stop"), "[DONE]");
await run("OpenAI `delta.tool_calls` as an object", openAI(), "createStream");
handler = json(200, { id: "c", object: "chat.completion", created: 1, model: "m", choices: "abc" });
await run('OpenAI `choices: "abc"`', openAI(), "create");
handler = json(200, {
  model: "m",
  created_at: "x",
  message: { role: "assistant", content: "", tool_calls: "x" },
  done: true,
});
await run('Ollama `tool_calls: "x"`', ollama(), "create");

// Item 3: listeners that throw anything.
for (const [name, thrown] of [
  ["a null-prototype object", () => Object.create(null) as unknown],
  [
    "an Error whose message getter throws",
    () =>
      Object.defineProperty(new Error(), "message", {
        get: () => {
          throw new Error("getter");
        },
      }),
  ],
  [
    "an object whose toString throws",
    () => ({
      toString: () => {
        throw new Error("toString");
      },
    }),
  ],
] as const) {
  for (const mode of ["create", "createStream"] as const) {
    const model = new ScriptedChatModel([streamStep(["Hel", "lo"])]);
    const warn = process.emitWarning;
    process.emitWarning = () => undefined;
    let unhandled = 0;
    const count = () => void unhandled++;
    process.on("unhandledRejection", count);
    for (const event of ["start", "newToken", "success", "finish"] as const) {
      model.emitter.on(event, () => {
        throw thrown();
      });
      const rejecting: () => unknown = () => Promise.reject(thrown() as Error);
      model.emitter.on(event, rejecting);
    }
    await run(`listeners throwing and rejecting with ${name}`, model, mode);
    await new Promise((resolve) => setTimeout(resolve, 5));
    process.off("unhandledRejection", count);
    process.emitWarning = warn;
    rows.at(-1)!.outcome += `, ${unhandled} unhandled rejections`;
    rows.at(-1)!.requests = "–";
  }
}

// Item 6 (part): unbounded work from small inputs.
{
  const tool = defineTool({ name: "grow_tree", inputSchema: doubling(18) });
  const model = new ScriptedChatModel([textStep("unused")], { toolChoiceSupport: ["auto", "none"] });
  await run(
    `a ${(JSON.stringify(doubling(18)).length / 1024).toFixed(1)} KB schema whose $defs double over 18 levels, forced`,
    model,
    "create",
    { ...ask, tools: [tool], toolChoice: "required" },
  );
  rows.at(-1)!.requests = `${model.calls.length}`;
}
{
  const page = `<html>${"<p>upstream failure</p>".repeat(700_000)}</html>`;
  handler = json(502, page, "text/html");
  await run("a 16 MB error page (502, retried twice)", openAI(), "create");
}

// Item 7: secrets.
handler = (request, response) =>
  json(401, `{"error":{"message":"denied","detail":${nested(11, String(request.headers.authorization))}}}`)(
    request,
    response,
  );
await run("the key echoed 11 levels deep in a 401 body", openAI(), "create", ask, key);
handler = (request, response) =>
  json(200, `${"x".repeat(40)}${String(request.headers.authorization)}`, "text/plain")(request, response);
await run("the key 40 characters into a 200 text body (quoted to 60)", openAI(), "create", ask, key);
{
  const token = "FAULTS-entra-token-0123456789";
  handler = (request, response) =>
    json(401, { error: { message: `bad token ${String(request.headers.authorization)}` } })(request, response);
  const azure = new AzureOpenAIChatModel("prod", {
    endpoint: url,
    azureADTokenProvider: () => Promise.resolve(token),
    ...once,
  });
  await run("an Entra ID token echoed in a 401", azure, "create", ask, token);
}

// Item 8: the provider's own error reports.
handler = sse(
  chunk({ content: "Hel" }),
  { object: "error", message: "prompt is too long", type: "BadRequestError", code: 400 },
  "[DONE]",
);
await run('vLLM `{ object: "error" }` chunk mid-stream', openAI(), "createStream");
handler = json(200, { error: { message: "upstream timed out", type: "server_error" } });
await run("a 200 `{ error: { message } }`", openAI({ retry: { maxRetries: 0 } }), "create");
const openRouter = fileURLToPath(
  new URL("../../shared/fixtures/extra/openai/compat-openrouter-stream-length-then-error-chunk.sse", import.meta.url),
);
if (existsSync(openRouter)) {
  handler = json(200, readFileSync(openRouter, "utf8"), "text/event-stream");
  await run("OpenRouter recorded: `length`, then an error chunk", openAI(), "createStream");
}

// Item 9: the server's report of the model's invalid tool call.
{
  const tool = defineTool({
    name: "final_result",
    inputSchema: { type: "object", properties: { response: { enum: ["yes", "no"] } }, required: ["response"] },
  });
  handler = (_request, response) =>
    requests === 1
      ? json(400, {
          error: {
            code: "tool_use_failed",
            failed_generation: "maybe",
            message: "Tool choice is required, but model did not call a tool",
            type: "invalid_request_error",
          },
        })(_request, response)
      : json(200, {
          id: "c",
          object: "chat.completion",
          created: 1,
          model: "m",
          choices: [
            {
              index: 0,
              message: {
                role: "assistant",
                content: null,
                tool_calls: [
                  {
                    id: "call_1",
                    type: "function",
                    function: { name: "final_result", arguments: '{"response":"yes"}' },
                  },
                ],
              },
              finish_reason: "tool_calls",
            },
          ],
        })(_request, response);
  await run(
    "Groq 400 `tool_use_failed` (no call), then a valid call",
    openAI({ toolChoiceSupport: ["auto", "none", "required", "single"] }),
    "create",
    { ...ask, tools: [tool], toolChoice: "required" },
  );
}

// Item 11: reasoning blocks.
{
  const redacted = Buffer.from("encrypted").toString("base64");
  const model = new ScriptedChatModel([
    {
      type: "stream",
      chunks: [
        { type: "reasoning-delta", text: "", redactedData: redacted },
        { type: "text-delta", text: "Paris." },
        { type: "finish", finishReason: "stop" },
      ],
    },
  ]);
  await run("a stream whose first reasoning chunk is redacted", model, "createStream");
  rows.at(-1)!.requests = "–";
}

// Bedrock: the faults above that apply to the Converse JSON and ConverseStream event-stream wire.
handler2 = json2(200, {
  output: { message: { role: "assistant", content: [null] } },
  stopReason: "end_turn",
  usage: { inputTokens: 1, outputTokens: 1, totalTokens: 2 },
});
await run("Bedrock `content: [null]` in a Converse 200", bedrock(), "create");
handler2 = events2(
  { messageStart: { role: "assistant" } },
  { contentBlockDelta: { contentBlockIndex: 0, delta: "x" } },
  { messageStop: { stopReason: "end_turn" } },
);
await run("Bedrock `contentBlockDelta.delta` as a string", bedrock(), "createStream");
{
  const page = `<html>${"<p>upstream failure</p>".repeat(700_000)}</html>`;
  handler2 = json2(502, page, "text/html");
  await run("Bedrock: a 16 MB error page (502, retried twice)", bedrock(), "create");
}
handler2 = json2(403, `{"message":"denied","detail":${nested(11, awsSecret)}}`, "application/json");
await run("Bedrock: the secret key echoed 11 levels deep in a 403 body", bedrock(), "create", ask, awsSecret);
handler2 = events2(
  { messageStart: { role: "assistant" } },
  { contentBlockDelta: { contentBlockIndex: 0, delta: { text: "Hel" } } },
  { modelStreamErrorException: { message: "the model stopped", originalStatusCode: 500 } },
);
await run("Bedrock `modelStreamErrorException` mid-stream", bedrock(), "createStream");
handler2 = events2(
  { messageStart: { role: "assistant" } },
  {
    contentBlockDelta: {
      contentBlockIndex: 0,
      delta: { reasoningContent: { redactedContent: Buffer.from("encrypted").toString("base64") } },
    },
  },
  { contentBlockStop: { contentBlockIndex: 0 } },
  { contentBlockDelta: { contentBlockIndex: 1, delta: { text: "Paris." } } },
  { contentBlockStop: { contentBlockIndex: 1 } },
  { messageStop: { stopReason: "end_turn" } },
);
await run("Bedrock: a stream whose first reasoning block is redacted", bedrock(), "createStream");

// Item 6 (body cap), every adapter at the default maxResponseBytes (64 MiB), and issue 23's HTML 200 on a stream.
const fetchAdapters: [string, () => ChatModel, string, string][] = [
  ["OpenAI", () => openAI(), "text/event-stream", `: ${"x".repeat(16_000)}\n\n`],
  [
    "Azure OpenAI",
    () => new AzureOpenAIChatModel("prod", { endpoint: url, apiKey: key, ...once }),
    "text/event-stream",
    `: ${"x".repeat(16_000)}\n\n`,
  ],
  [
    "OpenAI Responses",
    () => new OpenAIResponsesChatModel("gpt-5-mini", { baseURL: `${url}/v1`, apiKey: key, ...once }),
    "text/event-stream",
    `: ${"x".repeat(16_000)}\n\n`,
  ],
  [
    "Anthropic",
    () => new AnthropicChatModel("claude-sonnet-4-5", { baseURL: url, apiKey: key, ...once }),
    "text/event-stream",
    `: ${"x".repeat(16_000)}\n\n`,
  ],
  [
    "Ollama",
    ollama,
    "application/x-ndjson",
    `${JSON.stringify({ model: "m", created_at: "x", message: { role: "assistant", content: "a".repeat(16_000) }, done: false })}\n`,
  ],
];
/** Where a server stops writing on its own (1 GiB): an uncapped client would read it all. */
const serverLimit = 1024 * 1024 * 1024;
function endless(contentType: string, line: string): Handler {
  return (_request, response) => {
    response.writeHead(200, { "content-type": contentType });
    const block = Buffer.from(line.repeat(Math.max(1, Math.floor(65_536 / line.length))));
    let written = 0;
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
const bomb = (() => {
  const member = gzipSync(Buffer.alloc(1024 * 1024));
  return Buffer.concat(Array.from({ length: 640 }, () => member));
})();
for (const [name, model, streamType, line] of fetchAdapters) {
  handler = (_request, response) => {
    response.writeHead(200, { "content-type": "application/json", "content-encoding": "gzip" });
    response.end(bomb);
  };
  await run(`${name}: a ${Math.round(bomb.length / 1024)} KB gzip body inflating to 640 MiB`, model(), "create");
  handler = endless(streamType, line);
  await run(`${name}: an endless stream`, model(), "createStream");
  handler = json(200, "<!doctype html><html><body>Sign in</body></html>", "text/html");
  await run(`${name}: a stream answered 200 with an HTML page`, model(), "createStream");
}
{
  const block = frames(
    ...Array.from({ length: 64 }, () => ({
      contentBlockDelta: { contentBlockIndex: 0, delta: { text: "a".repeat(1000) } },
    })),
  );
  handler2 = (response) => {
    response.writeHead(200, { "content-type": "application/json" });
    let written = 0;
    const pump = () => {
      while (!response.stream.closed && written < serverLimit) {
        written += block.length;
        if (!response.write(block)) return void response.once("drain", pump);
      }
      if (!response.stream.closed) response.end();
    };
    pump();
  };
  await run("Bedrock: an endless Converse body", bedrock(), "create");
  handler2 = (response) => {
    response.writeHead(200, { "content-type": "application/vnd.amazon.eventstream" });
    response.write(frames({ messageStart: { role: "assistant" } }));
    let written = 0;
    const pump = () => {
      while (!response.stream.closed && written < serverLimit) {
        written += block.length;
        if (!response.write(block)) return void response.once("drain", pump);
      }
      if (!response.stream.closed) response.end();
    };
    pump();
  };
  await run("Bedrock: an endless event stream", bedrock(), "createStream");
  handler2 = json2(200, "<!doctype html><html><body>Sign in</body></html>", "text/html");
  await run("Bedrock: a ConverseStream answered 200 with an HTML page", bedrock(), "createStream");
}

// Item 5: cache stores that hang, fail or give back poison.
{
  const never = () => new Promise<never>(() => undefined);
  const stores: [string, ChatModelCache][] = [
    ["a cache whose `set()` never settles", { get: async () => undefined, set: never, delete: async () => undefined }],
    [
      "a cache whose `get()` never settles (read bound 1 s)",
      { get: never, set: async () => undefined, delete: async () => undefined },
    ],
    [
      "a cache whose every operation throws synchronously",
      {
        get: () => {
          throw new Error("closed");
        },
        set: () => {
          throw new Error("closed");
        },
        delete: () => {
          throw new Error("closed");
        },
      },
    ],
  ];
  for (const [name, cache] of stores) {
    for (const mode of ["create", "createStream"] as const) {
      handler = (request, response) => textReply(request, response, "stored?");
      const model = openAI({ cache });
      const warnings: string[] = [];
      model.emitter.on("warning", ({ message }) => warnings.push(message));
      await run(name, model, mode);
      rows.at(-1)!.outcome += `, ${warnings.length} warning${warnings.length === 1 ? "" : "s"} by then`;
    }
  }
  // A JSON store (Redis, SQLite behind Keyv) hands back what JSON.parse makes: own `__proto__` keys included.
  const texts = new Map<string, string>();
  const jsonStore: ChatModelCache = {
    get: async (key) => (texts.has(key) ? (JSON.parse(texts.get(key)!) as unknown) : undefined),
    set: async (key, value) => void texts.set(key, JSON.stringify(value)),
    delete: async (key) => void texts.delete(key),
  };
  const lookup = defineTool({
    name: "lookup",
    inputSchema: { type: "object", properties: { city: { type: "string" } } },
  });
  const toolAsk: ChatModelInput = { ...ask, tools: [lookup], toolChoice: "required" };
  const seeded = new ScriptedChatModel([toolCallStep("lookup", { city: "Paris" })], { cache: jsonStore });
  await seeded.create(toolAsk);
  for (const [key, text] of texts)
    texts.set(key, text.replaceAll('{"city":"Paris"}', '{"city":"Paris","__proto__":{"admin":true}}'));
  for (const mode of ["create", "createStream"] as const) {
    await run("a JSON store's entry with an own `__proto__` in tool arguments", seeded, mode, toolAsk);
    const served = lastOutput?.toolCalls[0]?.args;
    rows.at(-1)!.outcome +=
      `, hit ${String(lastOutput?.meta.cacheHit)}, own \`__proto__\` ${served ? Object.hasOwn(served, "__proto__") : "–"}`;
    rows.at(-1)!.requests = "–";
  }
  // An entry damaged in the store: the call goes on to the provider.
  const damaged: ChatModelCache = {
    get: async () => ({ output: { message: { role: "assistant", content: [null] }, toolCalls: "x" } }),
    set: async () => undefined,
    delete: async () => undefined,
  };
  for (const mode of ["create", "createStream"] as const) {
    handler = (request, response) => textReply(request, response, "fresh");
    const model = openAI({ cache: damaged });
    let warnings = 0;
    model.emitter.on("warning", () => void warnings++);
    await run('a cache entry of the wrong shape (`toolCalls: "x"`, a null part)', model, mode);
    rows.at(-1)!.outcome += `, ${warnings} warning${warnings === 1 ? "" : "s"}`;
  }
}

// Item 1: a status line whose reason phrase is not Latin-1, then the connection dropped mid-body.
{
  let unhandled = 0;
  const count = () => void unhandled++;
  process.on("unhandledRejection", count);
  handler = (request) => {
    const head = "HTTP/1.1 200 \u6210\u529f\r\ncontent-type: application/json\r\ncontent-length: 400\r\n\r\n";
    request.socket.end(Buffer.concat([Buffer.from(head, "utf8"), Buffer.from('{"id":"c","choices":[')]));
  };
  for (const mode of ["create", "createStream"] as const) {
    unhandled = 0;
    await run("a `200 \u6210\u529f` status line, then a dropped connection", openAI(), mode);
    await new Promise((resolve) => setTimeout(resolve, 50));
    rows.at(-1)!.outcome += `, ${unhandled} unhandled rejections, process alive`;
  }
  process.off("unhandledRejection", count);
}

// Item 4: a stream whose iteration threw is still settled by final(); three next() at once open one request.
{
  const bound = <T>(promise: Promise<T>) =>
    Promise.race([
      promise.then(
        () => "settled",
        () => "settled",
      ),
      new Promise<string>((resolve) => setTimeout(() => resolve("HUNG"), 5_000)),
    ]);
  const plainSignal = { aborted: false } as unknown as AbortSignal;
  requests = 0;
  let started = performance.now();
  const broken = openAI().createStream({ ...ask, signal: plainSignal });
  let thrown = "none";
  try {
    for await (const _chunk of broken);
  } catch (error) {
    thrown = (error as Error).name;
  }
  const finalOutcome = await bound(broken.final());
  rows.push({
    fault: "`final()` after iteration threw (a plain-object `signal`) (createStream)",
    outcome: `iteration: ${thrown}; final(): ${finalOutcome}`,
    requests,
    ms: Math.round(performance.now() - started),
    mb: "–",
  });
  handler = (request, response) => textReply(request, response, "once");
  requests = 0;
  started = performance.now();
  const stream = openAI().createStream(ask);
  const iterator = stream[Symbol.asyncIterator]();
  const [nexts, output] = await Promise.all([
    Promise.all([iterator.next(), iterator.next(), iterator.next()]),
    stream.final(),
  ]);
  rows.push({
    fault: "three `next()` and `final()` at once (createStream)",
    outcome: `answer (${output.finishReason}), ${nexts.filter((result) => !result.done).length} of 3 reads a chunk`,
    requests,
    ms: Math.round(performance.now() - started),
    mb: "–",
  });
}

// Item 10: a redirect to a data: URL is refused; a cross-origin redirect carries no credential.
{
  handler = (_request, response) => {
    response.writeHead(302, { location: 'data:application/json,{"choices":[]}' });
    response.end();
  };
  for (const mode of ["create", "createStream"] as const) await run("a redirect to a `data:` URL", openAI(), mode);
  let credential = "none";
  const other = createServer((request, response) => {
    credential = request.headers.authorization ?? request.headers["api-key"]?.toString() ?? "none";
    const chunks: Buffer[] = [];
    request.on("data", (chunk: Buffer) => chunks.push(chunk));
    request.on("end", () =>
      textReply(Object.assign(request, { body: Buffer.concat(chunks).toString("utf8") }), response, "moved"),
    );
  });
  await new Promise<void>((resolve) => other.listen(0, "127.0.0.1", resolve));
  const otherUrl = `http://127.0.0.1:${(other.address() as AddressInfo).port}`;
  handler = (request, response) => {
    response.writeHead(307, { location: `${otherUrl}${request.url}` });
    response.end();
  };
  for (const mode of ["create", "createStream"] as const) {
    credential = "none";
    await run("a 307 redirect to another origin", openAI(), mode);
    rows.at(-1)!.outcome += `, credential sent on: ${credential === "none" ? "none" : "YES"}`;
  }
  other.close();
}

server.close();
for (const session of sessions) session.destroy();
server2.close();

const table = [
  "| fault | outcome | requests | ms | MB |",
  "| --- | --- | --- | --- | --- |",
  ...rows.map((row) => `| ${row.fault} | ${row.outcome} | ${row.requests} | ${row.ms} | ${row.mb} |`),
].join("\n");

if (process.argv.includes("--write")) {
  const doc = fileURLToPath(new URL("../docs/reliability.md", import.meta.url));
  const text = readFileSync(doc, "utf8");
  const start = "<!-- faults:start -->";
  const end = "<!-- faults:end -->";
  writeFileSync(
    doc,
    `${text.slice(0, text.indexOf(start) + start.length)}\n${table}\n${text.slice(text.indexOf(end))}`,
  );
}
process.stdout.write(`${table}\n`);
