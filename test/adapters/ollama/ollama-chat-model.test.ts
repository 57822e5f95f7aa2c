import type { ServerResponse } from "node:http";
import { Ollama } from "ollama";
import { afterEach, describe, expect, it, vi } from "vitest";
import { OllamaChatModel } from "../../../src/adapters/ollama/index.js";
import { defineTool, ProviderError, UnsupportedFeatureError } from "../../../src/index.js";
import type { ChatModelChunk, Message, ProviderInput, RunContext } from "../../../src/index.js";
import { isAbortable } from "../../../src/internal/abort.js";
import { sendJSON, startLoopbackServer, useLoopbackServer } from "../../support/loopback-server.js";
import { sendNDJSON } from "../../support/ndjson.js";
import { callModes, runCall } from "../../support/run-modes.js";
import {
  createOllamaModel,
  readOwnFixture,
  readOwnJSON,
  replyError,
  replyNDJSON,
  replyWith,
  toStreamParts,
} from "./ollama-harness.js";

const user = (content: string): Message => ({ role: "user", content });
const lookupIncident = defineTool({
  name: "lookup_incident",
  description: "Look up an incident by its id.",
  inputSchema: { type: "object", properties: { incident_id: { type: "string" } }, required: ["incident_id"] },
});

async function until(condition: () => boolean, timeoutMs = 2000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!condition()) {
    if (Date.now() > deadline) throw new Error("condition not met in time");
    await new Promise((resolve) => setTimeout(resolve, 5));
  }
}

async function closedPortURL(): Promise<string> {
  const probe = await startLoopbackServer();
  await probe.close();
  return probe.url;
}

describe("OllamaChatModel", () => {
  const server = useLoopbackServer();
  afterEach(() => {
    vi.unstubAllEnvs();
  });

  describe("construction", () => {
    it("should declare the Ollama profile: no tool_choice support, structured output with a root union", () => {
      const model = new OllamaChatModel("llama3.2", { host: server.url });
      expect(model.providerId).toBe("ollama");
      expect(model.modelId).toBe("llama3.2");
      expect([...model.toolChoiceSupport]).toEqual([]);
      expect(model.supportsStructuredOutput).toBe(true);
      expect(model.supportsTopLevelUnion).toBe(true);
    });

    it("should let options override the profile", () => {
      const model = new OllamaChatModel("llama3.2", {
        host: server.url,
        toolChoiceSupport: ["auto"],
        supportsTopLevelUnion: false,
      });
      expect([...model.toolChoiceSupport]).toEqual(["auto"]);
      expect(model.supportsTopLevelUnion).toBe(false);
    });

    it("should reject an empty host and a client that is not an Ollama client with a TypeError", () => {
      expect(() => new OllamaChatModel("llama3.2", { host: " " })).toThrow(TypeError);
      expect(() => new OllamaChatModel("llama3.2", { client: {} as Ollama })).toThrow(/Ollama instance/);
    });

    it("should use OLLAMA_HOST when no host is given", async () => {
      vi.stubEnv("OLLAMA_HOST", server.url);
      server.handle(replyWith(readOwnJSON("api-chat-nonstream-text.json")));
      const output = await new OllamaChatModel("llama3.2").create({ messages: [user("hi")] });
      expect(output.text).toBe("Hello! How can I help?");
      expect(server.requests).toHaveLength(1);
    });

    it("should prefer the host option over OLLAMA_HOST", async () => {
      vi.stubEnv("OLLAMA_HOST", await closedPortURL());
      server.handle(replyWith(readOwnJSON("api-chat-nonstream-text.json")));
      const output = await new OllamaChatModel("llama3.2", { host: server.url }).create({ messages: [user("hi")] });
      expect(output.text).toBe("Hello! How can I help?");
    });

    it("should use a ready client and send the configured headers", async () => {
      server.handle(replyWith(readOwnJSON("api-chat-nonstream-text.json")));
      const client = new Ollama({ host: server.url, headers: { "x-from-client": "yes" } });
      const output = await new OllamaChatModel("llama3.2", { client }).create({ messages: [user("hi")] });
      expect(output.text).toBe("Hello! How can I help?");
      expect(server.requests[0]!.headers["x-from-client"]).toBe("yes");

      const model = createOllamaModel(server.url, { headers: { authorization: "Bearer secret-token" } });
      await model.create({ messages: [user("hi")] });
      expect(server.requests[1]!.headers.authorization).toBe("Bearer secret-token");
    });

    it("should go through a custom fetch", async () => {
      server.handle(replyWith(readOwnJSON("api-chat-nonstream-text.json")));
      const seen: string[] = [];
      const model = createOllamaModel(server.url, {
        fetch: (url, init) => {
          seen.push(String(url));
          return fetch(url, init);
        },
      });
      await model.create({ messages: [user("hi")] });
      expect(seen).toEqual([`${server.url}/api/chat`]);
    });
  });

  describe.each(callModes)("through %s", (mode) => {
    it("should return text with usage and the stop finish reason", async () => {
      const body = readOwnJSON("api-chat-nonstream-text.json");
      server.handle(replyWith(body));
      const { output, chunks } = await runCall(createOllamaModel(server.url), { messages: [user("hi")] }, mode);
      expect(output.text).toBe("Hello! How can I help?");
      expect(output.message).toEqual({ role: "assistant", content: "Hello! How can I help?" });
      expect(output.finishReason).toBe("stop");
      expect(output.usage).toEqual({ inputTokens: 12, outputTokens: 7, totalTokens: 19 });
      if (mode === "createStream") {
        expect(
          chunks.filter((chunk) => chunk.type === "text-delta").map((chunk) => (chunk as { text: string }).text),
        ).toEqual(["Hello! ", "How ", "can ", "I ", "help?"]);
      } else {
        expect(output.raw).toEqual(body);
      }
    });

    it("should map done_reason length to the length finish reason", async () => {
      server.handle(replyWith(readOwnJSON("api-chat-nonstream-length.json")));
      const { output } = await runCall(
        createOllamaModel(server.url),
        { messages: [user("story")], parameters: { maxTokens: 8 } },
        mode,
      );
      expect(server.requests[0]!.json.options).toEqual({ num_predict: 8 });
      expect(output.finishReason).toBe("length");
      expect(output.text).toBe("Once upon a time, in a land far");
    });

    it("should return thinking as reasoning and keep it in the message", async () => {
      server.handle(replyWith(readOwnJSON("api-chat-nonstream-thinking.json")));
      const { output, chunks } = await runCall(
        createOllamaModel(server.url, {}, "qwen3"),
        { messages: [user("17 × 23?")], parameters: { reasoningEffort: "high" } },
        mode,
      );
      expect(server.requests[0]!.json.think).toBe("high");
      expect(output.reasoning).toBe("17 × 20 = 340 and 17 × 3 = 51, so 391.");
      expect(output.text).toBe("17 × 23 = 391.");
      expect(output.message.content).toEqual([
        { type: "reasoning", text: "17 × 20 = 340 and 17 × 3 = 51, so 391." },
        { type: "text", text: "17 × 23 = 391." },
      ]);
      if (mode === "createStream") expect(chunks[0]).toEqual({ type: "reasoning-delta", text: "17 " });
    });

    it("should return a native tool call on auto with a generated id", async () => {
      server.handle(replyWith(readOwnJSON("api-chat-nonstream-tool-call.json")));
      const { output } = await runCall(
        createOllamaModel(server.url),
        { messages: [user("INC-001?")], tools: [lookupIncident] },
        mode,
      );
      expect(server.requests[0]!.json.tools[0].function.name).toBe("lookup_incident");
      expect(output.toolCalls).toEqual([
        {
          type: "tool-call",
          id: expect.stringMatching(/^call_[a-z0-9]{8}$/),
          name: "lookup_incident",
          args: { incident_id: "INC-001" },
        },
      ]);
      expect(output.meta.repairs.map((repair) => repair.kind)).toEqual(["missing-id"]);
    });

    it("should force a required call through format without tools", async () => {
      server.handle(replyWith(readOwnJSON("api-chat-nonstream-tool-union.json")));
      const { output } = await runCall(
        createOllamaModel(server.url),
        { messages: [user("INC-001?")], tools: [lookupIncident], toolChoice: "required" },
        mode,
      );
      const sent = server.requests[0]!.json;
      expect(sent).not.toHaveProperty("tools");
      expect(sent.format.properties.name.enum).toEqual(["lookup_incident"]);
      expect(sent.format.properties.parameters.properties).toEqual({ incident_id: { type: "string" } });
      expect(output.meta.toolChoice).toBe("response-format");
      expect(output.toolCalls).toEqual([
        {
          type: "tool-call",
          id: expect.stringMatching(/^call_[a-z0-9]{8}$/),
          name: "lookup_incident",
          args: { incident_id: "INC-001" },
        },
      ]);
    });

    it("should fail on a missing model with a 404 that says to ollama pull it, without retrying", async () => {
      server.handle(replyError(404, JSON.parse(readOwnFixture("api-chat-error-404-model-not-found.json"))));
      const model = createOllamaModel(server.url, { retry: { maxRetries: 2, initialDelayMs: 1 } });
      const error = await runCall(model, { messages: [user("hi")] }, mode).catch((caught: unknown) => caught);
      expect(ProviderError.isInstance(error)).toBe(true);
      expect(error).toMatchObject({
        statusCode: 404,
        reason: "not-found",
        isRetryable: false,
        code: "model_not_found",
      });
      expect((error as Error).message).toContain("Run `ollama pull llama3.2`");
      expect((error as Error).message).toContain(server.url);
      expect((error as Error).cause).toMatchObject({ name: "ResponseError", status_code: 404 });
      // The SDK's own error, as it raised it (its class, and the message in its `error` field), not a copy made by keelson.
      const cause = (error as Error).cause as Error & { error?: unknown };
      expect(cause.constructor.name).toBe("ResponseError");
      expect(cause.error).toBe(cause.message);
      expect(server.requests).toHaveLength(1);
    });

    it("should say Ollama is not running when the connection is refused, as a retryable network error", async () => {
      const url = await closedPortURL();
      const model = createOllamaModel(url, { retry: { maxRetries: 1, initialDelayMs: 1 } });
      const retries: unknown[] = [];
      model.emitter.on("retry", ({ error }) => retries.push(error));
      const error = await runCall(model, { messages: [user("hi")] }, mode).catch((caught: unknown) => caught);
      expect(ProviderError.isInstance(error)).toBe(true);
      expect(error).toMatchObject({
        reason: "network",
        isRetryable: true,
        code: "ECONNREFUSED",
        statusCode: undefined,
      });
      expect((error as Error).message).toContain(`Ollama is not running at ${url}`);
      expect((error as Error).cause).toBeInstanceOf(TypeError);
      expect(retries).toHaveLength(1);
    });

    it("should raise a 500 as a retryable server error once retries are spent", async () => {
      server.handle(replyError(500, JSON.parse(readOwnFixture("api-chat-error-500.json"))));
      const error = await runCall(createOllamaModel(server.url), { messages: [user("hi")] }, mode).catch(
        (caught: unknown) => caught,
      );
      expect(error).toMatchObject({ name: "ProviderError", statusCode: 500, reason: "server", isRetryable: true });
      expect((error as Error).message).toContain("llama runner process has terminated");
    });

    it("should end an aborted call promptly with AbortError, cancel its request, and leave a concurrent call alone", async () => {
      let abandonedClosed = false;
      server.handle((request, reply) => {
        if (request.json.messages[0].content === "A") {
          reply.on("close", () => {
            abandonedClosed = true;
          });
          return; // never answered: only an abort ends it
        }
        setTimeout(() => void replyWith(readOwnJSON("api-chat-nonstream-text.json"))(request, reply), 150);
      });
      const model = createOllamaModel(server.url);
      const controller = new AbortController();
      const first = runCall(model, { messages: [user("A")], signal: controller.signal }, mode);
      const second = runCall(model, { messages: [user("B")] }, mode);
      await until(() => server.requests.length === 2);
      const abortedAt = Date.now();
      controller.abort();
      await expect(first).rejects.toMatchObject({ name: "AbortError" });
      expect(Date.now() - abortedAt).toBeLessThan(500);
      const { output } = await second;
      expect(output.text).toBe("Hello! How can I help?");
      await until(() => abandonedClosed);
    });
  });

  describe("request mapping", () => {
    it("should map parameters to options, turn think on from providerOptions, and merge provider options", async () => {
      server.handle(replyWith(readOwnJSON("api-chat-nonstream-text.json")));
      const model = createOllamaModel(server.url, { keepAlive: "10m", parameters: { temperature: 0.5 } });
      await model.create({
        messages: [{ role: "system", content: "Be brief." }, user("hi")],
        parameters: {
          temperature: 0.2,
          maxTokens: 64,
          topP: 0.9,
          topK: 40,
          stop: ["\n\n"],
          seed: 7,
          frequencyPenalty: 0.1,
          presencePenalty: 0.3,
        },
        providerOptions: { think: true, options: { num_ctx: 8192 }, logprobs: true },
      });
      expect(server.requests[0]!.json).toEqual({
        model: "llama3.2",
        messages: [
          { role: "system", content: "Be brief." },
          { role: "user", content: "hi" },
        ],
        options: {
          temperature: 0.2,
          num_predict: 64,
          top_p: 0.9,
          top_k: 40,
          stop: ["\n\n"],
          seed: 7,
          frequency_penalty: 0.1,
          presence_penalty: 0.3,
          num_ctx: 8192,
        },
        think: true,
        keep_alive: "10m",
        logprobs: true,
        stream: false,
      });
    });

    it("should run plain calls on the shared inert signal, and a call with a timeout on its own", async () => {
      server.handle(replyWith(readOwnJSON("api-chat-nonstream-text.json")));
      const signals: AbortSignal[] = [];
      class Watched extends OllamaChatModel {
        protected override _create(input: ProviderInput, context: RunContext) {
          signals.push(context.signal);
          return super._create(input, context);
        }
      }
      const model = new Watched("llama3.2", { host: server.url, retry: { maxRetries: 0 } });
      await model.create({ messages: [user("a")] });
      await model.create({ messages: [user("b")] });
      await model.create({ messages: [user("c")], timeout: 60_000 });
      expect(signals[0]).toBe(signals[1]);
      expect(signals.map(isAbortable)).toEqual([false, false, true]);
    });

    it("should send a __proto__ key of providerOptions as a plain field of the body", async () => {
      server.handle(replyWith(readOwnJSON("api-chat-nonstream-text.json")));
      const providerOptions = JSON.parse('{"__proto__": {"num_keep": 5}, "logprobs": true}') as Record<string, unknown>;
      await createOllamaModel(server.url).create({ messages: [user("hi")], providerOptions });
      const body = server.requests[0]!.json;
      expect(Object.prototype.hasOwnProperty.call(body, "__proto__")).toBe(true);
      expect(Object.getOwnPropertyDescriptor(body, "__proto__")!.value).toEqual({ num_keep: 5 });
      expect(body.logprobs).toBe(true);
    });

    it("should keep stream its own when providerOptions set it", async () => {
      server.handle(replyWith(readOwnJSON("api-chat-nonstream-text.json")));
      const output = await createOllamaModel(server.url).create({
        messages: [user("hi")],
        providerOptions: { stream: true },
      });
      expect(server.requests[0]!.json.stream).toBe(false);
      expect(output.text).not.toBe("");
    });

    it("should send no think, options or format when nothing asks for them", async () => {
      server.handle(replyWith(readOwnJSON("api-chat-nonstream-text.json")));
      await createOllamaModel(server.url).create({ messages: [user("hi")] });
      expect(server.requests[0]!.json).toEqual({
        model: "llama3.2",
        messages: [{ role: "user", content: "hi" }],
        stream: false,
      });
    });

    it("should let providerOptions.think override the reasoning effort, and map minimal to low", async () => {
      server.handle(replyWith(readOwnJSON("api-chat-nonstream-text.json")));
      const model = createOllamaModel(server.url);
      await model.create({
        messages: [user("a")],
        parameters: { reasoningEffort: "high" },
        providerOptions: { think: false },
      });
      await model.create({ messages: [user("b")], parameters: { reasoningEffort: "minimal" } });
      expect(server.requests.map((request) => request.json.think)).toEqual([false, "low"]);
    });

    it("should send free-form JSON as format json", async () => {
      server.handle(
        replyWith({
          ...readOwnJSON("api-chat-nonstream-text.json"),
          message: { role: "assistant", content: '{"ok": true}' },
        }),
      );
      const output = await createOllamaModel(server.url).create({
        messages: [user("json please")],
        responseFormat: { type: "json" },
      });
      expect(server.requests[0]!.json.format).toBe("json");
      expect(output.object).toEqual({ ok: true });
    });

    it("should send images as base64 and an assistant's reasoning back as thinking", async () => {
      server.handle(replyWith(readOwnJSON("api-chat-nonstream-text.json")));
      const png = Buffer.from("not really a png").toString("base64");
      await createOllamaModel(server.url).create({
        messages: [
          {
            role: "user",
            content: [
              { type: "text", text: "What is this? " },
              { type: "image", image: `data:image/png;base64,${png}` },
              { type: "image", image: png, mediaType: "image/png" },
            ],
          },
          {
            role: "assistant",
            content: [
              { type: "reasoning", text: "Looks like text." },
              { type: "text", text: "A file." },
            ],
          },
          user("Sure?"),
        ],
      });
      expect(server.requests[0]!.json.messages).toEqual([
        { role: "user", content: "What is this? ", images: [png, png] },
        { role: "assistant", content: "A file.", thinking: "Looks like text." },
        { role: "user", content: "Sure?" },
      ]);
    });

    it("should send a user message's text parts a line apart, not run together", async () => {
      server.handle(replyWith(readOwnJSON("api-chat-nonstream-text.json")));
      const png = Buffer.from("not really a png").toString("base64");
      await createOllamaModel(server.url).create({
        messages: [
          {
            role: "user",
            content: [
              { type: "text", text: "Describe the picture." },
              { type: "image", image: png, mediaType: "image/png" },
              { type: "text", text: "Answer in one word." },
            ],
          },
        ],
      });
      expect(server.requests[0]!.json.messages).toEqual([
        { role: "user", content: "Describe the picture.\nAnswer in one word.", images: [png] },
      ]);
    });

    it("should never read a local file named by an image string", async () => {
      server.handle(replyWith(readOwnJSON("api-chat-nonstream-text.json")));
      // The SDK reads an image string that names an existing file; keelson hands it bytes instead.
      await createOllamaModel(server.url).create({
        messages: [{ role: "user", content: [{ type: "image", image: "package.json", mediaType: "image/png" }] }],
      });
      const sent: string = server.requests[0]!.json.messages[0].images[0];
      expect(Buffer.from(sent, "base64").toString("utf8")).not.toContain('"name": "keelson"');
      expect(sent).toBe(Buffer.from("package.json", "base64").toString("base64"));
    });

    it("should refuse an image URL before any request", async () => {
      const error = await createOllamaModel(server.url)
        .create({ messages: [{ role: "user", content: [{ type: "image", image: "https://example.com/cat.png" }] }] })
        .catch((caught: unknown) => caught);
      expect(UnsupportedFeatureError.isInstance(error)).toBe(true);
      expect((error as Error).message).toMatch(/base64/);
      expect(server.requests).toHaveLength(0);
    });

    it("should send a host's credentials as a Basic header and keep them out of errors", async () => {
      server.handle(replyWith(readOwnJSON("api-chat-nonstream-text.json")));
      const withCredentials = (url: string) => url.replace("http://", "http://admin:hunter%402@");
      const output = await createOllamaModel(withCredentials(server.url)).create({ messages: [user("hi")] });
      expect(output.text).toBe("Hello! How can I help?");
      expect(server.requests[0]!.headers.authorization).toBe(
        `Basic ${Buffer.from("admin:hunter@2").toString("base64")}`,
      );

      const closed = await closedPortURL();
      const error = await createOllamaModel(withCredentials(closed))
        .create({ messages: [user("hi")] })
        .catch((caught: unknown) => caught);
      expect((error as Error).message).toContain(`not running at ${closed}`);
      expect((error as Error).message).not.toContain("hunter");
    });
  });

  describe("streaming", () => {
    async function collect(stream: AsyncIterable<ChatModelChunk>): Promise<ChatModelChunk[]> {
      const chunks: ChatModelChunk[] = [];
      for await (const chunk of stream) chunks.push(chunk);
      return chunks;
    }

    it("should yield text deltas in order, then the finish chunk with usage", async () => {
      server.handle(replyNDJSON(readOwnFixture("api-chat-stream-text.ndjson")));
      const stream = createOllamaModel(server.url).createStream({ messages: [user("Why is the sky blue?")] });
      const chunks = await collect(stream);
      expect(chunks).toEqual([
        { type: "text-delta", text: "The" },
        { type: "text-delta", text: " sky" },
        { type: "text-delta", text: " is" },
        { type: "text-delta", text: " blue." },
        { type: "finish", finishReason: "stop", usage: { inputTokens: 26, outputTokens: 4, totalTokens: 30 } },
      ]);
      const output = await stream.final();
      expect(output.text).toBe("The sky is blue.");
      expect(output.raw).toMatchObject({ done: true, eval_count: 4 });
    });

    it("should yield thinking as reasoning deltas before the text", async () => {
      server.handle(replyNDJSON(readOwnFixture("api-chat-stream-thinking.ndjson")));
      const stream = createOllamaModel(server.url, {}, "qwen3").createStream({
        messages: [user("2+2?")],
        providerOptions: { think: true },
      });
      const chunks = await collect(stream);
      expect(chunks.slice(0, 3)).toEqual([
        { type: "reasoning-delta", text: "Two plus" },
        { type: "reasoning-delta", text: " two is four." },
        { type: "text-delta", text: "4" },
      ]);
      const output = await stream.final();
      expect(output.reasoning).toBe("Two plus two is four.");
      expect(output.usage.outputTokens).toBe(11);
    });

    it("should raise an error line inside the stream as a server error", async () => {
      server.handle(replyNDJSON(readOwnFixture("api-chat-stream-error-line.ndjson")));
      const error = await collect(createOllamaModel(server.url).createStream({ messages: [user("hi")] })).catch(
        (caught: unknown) => caught,
      );
      expect(error).toMatchObject({
        name: "ProviderError",
        reason: "server",
        isRetryable: true,
        statusCode: undefined,
      });
      expect((error as Error).message).toContain("unexpected EOF");
    });

    it("should raise a stream cut before its done chunk as a network error carrying what arrived", async () => {
      const lines = readOwnFixture("api-chat-stream-text.ndjson").trim().split("\n").slice(0, 2);
      server.handle((_request, reply) => sendNDJSON(reply, lines));
      const stream = createOllamaModel(server.url).createStream({ messages: [user("hi")] });
      const chunks: ChatModelChunk[] = [];
      const error = await (async () => {
        for await (const chunk of stream) chunks.push(chunk);
      })().catch((caught: unknown) => caught);
      expect(chunks).toEqual([
        { type: "text-delta", text: "The" },
        { type: "text-delta", text: " sky" },
      ]);
      expect(error).toMatchObject({ name: "ProviderError", reason: "network", partialOutput: { text: "The sky" } });
    });

    it("should end promptly with AbortError when aborted mid-stream, closing the response", async () => {
      let closed = false;
      let reply: ServerResponse | undefined;
      server.handle((_request, response) => {
        reply = response;
        response.on("close", () => {
          closed = true;
        });
        response.writeHead(200, { "content-type": "application/x-ndjson" });
        response.write(`${JSON.stringify(toStreamParts(readOwnJSON("api-chat-nonstream-text.json"))[0])}\n`);
      });
      const controller = new AbortController();
      const stream = createOllamaModel(server.url).createStream({ messages: [user("hi")], signal: controller.signal });
      const iterator = stream[Symbol.asyncIterator]();
      expect(await iterator.next()).toEqual({ done: false, value: { type: "text-delta", text: "Hello! " } });
      const pending = iterator.next();
      controller.abort();
      await expect(pending).rejects.toMatchObject({ name: "AbortError" });
      await until(() => closed);
      expect(reply?.writableEnded).toBe(false);
    });

    it("should close the response when the consumer stops reading", async () => {
      let closed = false;
      server.handle((_request, response) => {
        response.on("close", () => {
          closed = true;
        });
        response.writeHead(200, { "content-type": "application/x-ndjson" });
        response.write(`${JSON.stringify(toStreamParts(readOwnJSON("api-chat-nonstream-text.json"))[0])}\n`);
      });
      const stream = createOllamaModel(server.url).createStream({ messages: [user("hi")] });
      for await (const chunk of stream) {
        expect(chunk).toEqual({ type: "text-delta", text: "Hello! " });
        break;
      }
      await until(() => closed);
    });
  });

  it("should settle an aborted call at once with a caller's own client", async () => {
    server.handle(() => undefined);
    const model = new OllamaChatModel("llama3.2", {
      client: new Ollama({ host: server.url }),
      retry: { maxRetries: 0 },
    });
    const controller = new AbortController();
    const pending = model.create({ messages: [user("hi")], signal: controller.signal });
    await until(() => server.requests.length === 1);
    controller.abort();
    await expect(pending).rejects.toMatchObject({ name: "AbortError" });
  });

  it("should not retry when an answer is a plain 400, and keep the server's message", async () => {
    server.handle((_request, reply) =>
      sendJSON(reply, 400, { error: 'think value "medium" is not supported for this model' }),
    );
    const error = await createOllamaModel(server.url, { retry: { maxRetries: 2, initialDelayMs: 1 } })
      .create({ messages: [user("hi")], parameters: { reasoningEffort: "medium" } })
      .catch((caught: unknown) => caught);
    expect(error).toMatchObject({ statusCode: 400, reason: "invalid-request", isRetryable: false });
    expect((error as Error).message).toContain('think value "medium" is not supported');
    expect((error as Error).message).toContain("providerOptions: { think: true }");
    expect(server.requests).toHaveLength(1);
  });
});
