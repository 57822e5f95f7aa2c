import { getEventListeners } from "node:events";
import { inspect } from "node:util";
import OpenAI from "openai";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { OpenAIChatModel } from "../../../src/adapters/openai/index.js";
import type { OpenAIChatModelOptions } from "../../../src/adapters/openai/index.js";
import { ProviderError } from "../../../src/index.js";
import type { ChatModelInput, ChatModelOutput, ToolDefinition } from "../../../src/index.js";
import type { LoopbackServer } from "../../support/loopback-server.js";
import { sendJSON, startLoopbackServer } from "../../support/loopback-server.js";
import { openAITextReply, readOwnOpenAIFixture } from "../../support/openai-wire.js";

const apiKey = "sk-test-SENTINEL-123";
const weather = {
  name: "get_weather",
  description: "The weather in a city.",
  inputSchema: { type: "object", properties: { city: { type: "string" } }, required: ["city"] },
};
const time = {
  name: "get_time",
  inputSchema: { type: "object", properties: { zone: { type: "string" } }, required: ["zone"] },
};
const user = [{ role: "user" as const, content: "hi" }];

let server: LoopbackServer;
beforeEach(async () => {
  server = await startLoopbackServer();
});
afterEach(async () => {
  await server.close();
});

function model(options: OpenAIChatModelOptions = {}): OpenAIChatModel {
  return new OpenAIChatModel("gpt-4o-mini", { baseURL: `${server.url}/v1`, apiKey, ...options });
}

/** Answers every request with the own fixture that fits: JSON for create, SSE for createStream. */
function answerWith(json: string, sse: string): void {
  server.handle((request, response) => {
    if ((request.json as { stream?: boolean }).stream) {
      response.writeHead(200, { "content-type": "text/event-stream" });
      response.end(readOwnOpenAIFixture(sse));
    } else {
      sendJSON(response, 200, readOwnOpenAIFixture(json));
    }
  });
}

/** Answers with a reply whose text is `text` (a tool-union JSON, say). */
function answerText(text: string): void {
  const reply = openAITextReply(text);
  server.handle((request, response) => {
    const step = (request.json as { stream?: boolean }).stream ? reply.stream! : reply.create!;
    response.writeHead(step.status ?? 200, step.headers);
    response.end(step.body as string);
  });
}

const modes = [
  { mode: "create", run: (subject: OpenAIChatModel, input: ChatModelInput) => subject.create(input) },
  {
    mode: "createStream",
    run: (subject: OpenAIChatModel, input: ChatModelInput) => subject.createStream(input).final(),
  },
] as const satisfies readonly {
  mode: string;
  run: (subject: OpenAIChatModel, input: ChatModelInput) => Promise<ChatModelOutput>;
}[];

describe("OpenAIChatModel", () => {
  describe.each(modes)("$mode", ({ mode, run }) => {
    it("should post tools, tool_choice and parallel_tool_calls to /chat/completions", async () => {
      answerWith("chat-one-tool-call.json", "chat-tool-call-split.sse");
      await run(model(), { messages: user, tools: [weather, time], toolChoice: { type: "tool", name: "get_weather" } });
      const [request] = server.requests;
      expect(request!.method).toBe("POST");
      expect(request!.url).toBe("/v1/chat/completions");
      expect(request!.json.tools).toEqual([
        {
          type: "function",
          function: { name: "get_weather", description: "The weather in a city.", parameters: weather.inputSchema },
        },
        { type: "function", function: { name: "get_time", parameters: time.inputSchema } },
      ]);
      expect(request!.json.tool_choice).toEqual({ type: "function", function: { name: "get_weather" } });
      expect(request!.json.parallel_tool_calls).toBe(false);
    });

    it("should send what a reused tools array holds at each call, a tool added or a description changed in place", async () => {
      answerWith("chat-one-tool-call.json", "chat-tool-call-split.sse");
      const subject = model();
      const lookup = { ...time, description: "first" };
      const tools: ToolDefinition[] = [weather];
      const input = { messages: user, tools, toolChoice: { type: "tool" as const, name: "get_weather" } };
      await run(subject, input);
      tools.push(lookup);
      await run(subject, input);
      lookup.description = "second";
      await run(subject, input);
      const sent = server.requests.map((request) =>
        (request.json.tools as { function: { name: string; description?: string } }[]).map((tool) => tool.function),
      );
      expect(sent.map((functions) => functions.map((fn) => fn.name))).toEqual([
        ["get_weather"],
        ["get_weather", "get_time"],
        ["get_weather", "get_time"],
      ]);
      expect(sent.map((functions) => functions[1]?.description)).toEqual([undefined, "first", "second"]);
    });

    it("should send tool_choice 'required' natively when the support set has it", async () => {
      answerWith("chat-one-tool-call.json", "chat-tool-call-split.sse");
      const output = await run(model({ toolChoiceSupport: ["auto", "none", "required", "single"] }), {
        messages: user,
        tools: [weather],
        toolChoice: "required",
        parallelToolCalls: true,
      });
      expect(server.requests[0]!.json).toMatchObject({ tool_choice: "required", parallel_tool_calls: true });
      expect(output.meta.toolChoice).toBe("native");
    });

    it("should send no tools fields at all when the call has no tools", async () => {
      answerText("plain");
      await run(model(), { messages: user });
      const body = server.requests[0]!.json;
      expect(body).not.toHaveProperty("tools");
      expect(body).not.toHaveProperty("tool_choice");
      expect(body).not.toHaveProperty("parallel_tool_calls");
      expect(body).not.toHaveProperty("response_format");
    });

    it("should send a strict json_schema response_format and parse the reply", async () => {
      answerText('{"answer":"Paris","confidence":null}');
      const schema = {
        type: "object",
        properties: { answer: { type: "string" }, confidence: { type: "number" } },
        required: ["answer"],
      };
      const output = await run(model(), {
        messages: user,
        responseFormat: { type: "json-schema", name: "capital", schema },
      });
      const format = server.requests[0]!.json.response_format;
      expect(format.type).toBe("json_schema");
      expect(format.json_schema.name).toBe("capital");
      expect(format.json_schema.strict).toBe(true);
      expect(format.json_schema.schema.required).toEqual(["answer", "confidence"]);
      expect(format.json_schema.schema.additionalProperties).toBe(false);
      expect(output.object).toEqual({ answer: "Paris" });
    });

    it("should send response_format json_object for free-form JSON", async () => {
      answerText('{"ok":true}');
      const output = await run(model(), { messages: user, responseFormat: { type: "json" } });
      expect(server.requests[0]!.json.response_format).toEqual({ type: "json_object" });
      expect(output.object).toEqual({ ok: true });
    });

    it("should map parameters and merge providerOptions into the body", async () => {
      answerText("ok");
      const openai = model({ maxTokensField: "max_completion_tokens" });
      const warnings: string[] = [];
      openai.emitter.on("warning", (event) => warnings.push(`${event.code}: ${event.message}`));
      await run(openai, {
        messages: user,
        parameters: {
          temperature: 0.2,
          maxTokens: 300,
          topP: 0.9,
          topK: 40,
          stop: ["END"],
          seed: 7,
          frequencyPenalty: 0.1,
          presencePenalty: 0.3,
          reasoningEffort: "low",
        },
        providerOptions: { user: "user-1", service_tier: "flex" },
      });
      const body = server.requests[0]!.json;
      expect(body).toMatchObject({
        model: "gpt-4o-mini",
        temperature: 0.2,
        max_completion_tokens: 300,
        top_p: 0.9,
        stop: ["END"],
        seed: 7,
        frequency_penalty: 0.1,
        presence_penalty: 0.3,
        reasoning_effort: "low",
        user: "user-1",
        service_tier: "flex",
      });
      expect(body).not.toHaveProperty("max_tokens");
      expect(body).not.toHaveProperty("top_k");
      // topK alone has no Chat Completions field: it is the one parameter said to be dropped.
      expect(warnings).toEqual([
        expect.stringMatching(/^unsupported-parameter: openai gpt-4o-mini has no parameter 'topK'/),
      ]);
    });

    it("should keep stream its own when providerOptions set it, and always ask a stream for usage", async () => {
      answerText("ok");
      const streamed = mode === "createStream";
      const output = await run(model(), {
        messages: user,
        providerOptions: { stream: !streamed, stream_options: { include_obfuscation: false, include_usage: false } },
      });
      expect(output.text).toBe("ok");
      const body = server.requests[0]!.json;
      expect(body.stream).toBe(streamed);
      expect(body.stream_options).toEqual(
        streamed
          ? { include_obfuscation: false, include_usage: true }
          : { include_obfuscation: false, include_usage: false },
      );
    });

    it("should send the whole assistant message and pair tool results by id", async () => {
      answerText("done");
      await run(model(), {
        messages: [
          { role: "system", content: "Be brief." },
          { role: "user", content: "Weather in Paris?" },
          {
            role: "assistant",
            content: [
              { type: "reasoning", text: "I should look it up." },
              { type: "text", text: "Looking it up." },
              { type: "tool-call", id: "call_1", name: "get_weather", args: { city: "Paris" } },
            ],
          },
          { role: "tool", toolCallId: "call_1", toolName: "get_weather", content: "18°C" },
        ],
      });
      expect(server.requests[0]!.json.messages).toEqual([
        { role: "system", content: "Be brief." },
        { role: "user", content: "Weather in Paris?" },
        {
          role: "assistant",
          content: "Looking it up.",
          // A custom baseURL: a tool-call turn's reasoning goes back, as DeepSeek's thinking mode requires.
          reasoning_content: "I should look it up.",
          tool_calls: [
            { id: "call_1", type: "function", function: { name: "get_weather", arguments: '{"city":"Paris"}' } },
          ],
        },
        { role: "tool", tool_call_id: "call_1", content: "18°C" },
      ]);
    });

    it("should make one request for a 429 insufficient_quota even with retries left", async () => {
      server.handle((_request, response) =>
        sendJSON(response, 429, readOwnOpenAIFixture("error-429-insufficient-quota.json")),
      );
      const error = await run(model({ retry: { maxRetries: 3, initialDelayMs: 1 } }), { messages: user }).catch(
        (caught: unknown) => caught,
      );
      expect(ProviderError.isInstance(error)).toBe(true);
      expect(error).toMatchObject({
        statusCode: 429,
        reason: "rate-limit",
        isRetryable: false,
        code: "insufficient_quota",
      });
      expect((error as Error).message).toMatch(/plan and billing/);
      expect(server.requests).toHaveLength(1);
    });

    it("should turn the SDK's own retries off for a given client, so that keelson's retries are the only ones", async () => {
      server.handle((_request, response) =>
        sendJSON(response, 500, readOwnOpenAIFixture("error-500-server.json"), { "retry-after-ms": "1" }),
      );
      const client = new OpenAI({ baseURL: `${server.url}/v1`, apiKey });
      const error = await run(
        new OpenAIChatModel("gpt-4o-mini", { client, retry: { maxRetries: 1, initialDelayMs: 1 } }),
        { messages: user },
      ).catch((caught: unknown) => caught);
      expect(error).toMatchObject({ statusCode: 500, reason: "server" });
      expect(server.requests).toHaveLength(2);
    });

    it("should keep the API key out of the error even when the server echoes it", async () => {
      server.handle((_request, response) =>
        sendJSON(response, 401, {
          error: {
            message: `Incorrect API key provided: ${apiKey}.`,
            type: "invalid_request_error",
            param: null,
            code: "invalid_api_key",
          },
        }),
      );
      const error = (await run(model(), { messages: user }).catch((caught: unknown) => caught)) as ProviderError;
      expect(server.requests[0]!.headers.authorization).toBe(`Bearer ${apiKey}`);
      expect(error).toMatchObject({ statusCode: 401, reason: "authentication", isRetryable: false });
      expect(error.message).toMatch(/OPENAI_API_KEY/);
      for (const text of [
        error.message,
        JSON.stringify(error),
        inspect(error, { depth: 10 }),
        String(error.cause),
        JSON.stringify(error.cause),
      ]) {
        expect(text).not.toContain(apiKey);
      }
      expect(error.message).toContain("[redacted]");
    });

    it("should learn from a 400 that refuses tool_choice and retry on the response-format rung", async () => {
      const union = openAITextReply('{"item":{"name":"get_weather","parameters":{"city":"Oslo"}}}');
      server.handle((request, response) => {
        if (server.requests.length === 1)
          return sendJSON(response, 400, readOwnOpenAIFixture("error-400-tool-choice.json"));
        const step = (request.json as { stream?: boolean }).stream ? union.stream! : union.create!;
        response.writeHead(200, step.headers);
        response.end(step.body as string);
      });
      const subject = model({ toolChoiceSupport: ["auto", "none", "required", "single"] });
      const output = await run(subject, { messages: user, tools: [weather], toolChoice: "required" });
      expect(server.requests).toHaveLength(2);
      expect(server.requests[0]!.json.tool_choice).toBe("required");
      expect(server.requests[1]!.json).not.toHaveProperty("tools");
      expect(server.requests[1]!.json).not.toHaveProperty("tool_choice");
      expect(server.requests[1]!.json.response_format.type).toBe("json_schema");
      expect(subject.toolChoiceSupport.has("required")).toBe(false);
      expect(output.meta.toolChoice).toBe("response-format");
      expect(output.toolCalls.map(({ name, args }) => ({ name, args }))).toEqual([
        { name: "get_weather", args: { city: "Oslo" } },
      ]);
    });

    it("should learn from a gateway's 400 whose message alone says the tool_choice value is unsupported", async () => {
      // vLLM's wording when auto tool choice is not enabled: no param, a numeric code.
      const refusal = {
        error: {
          message: '"auto" tool choice requires --enable-auto-tool-choice and --tool-call-parser to be set',
          type: "BadRequestError",
          param: null,
          code: 400,
        },
      };
      const reply = openAITextReply("no tool needed");
      server.handle((request, response) => {
        if (server.requests.length === 1) return sendJSON(response, 400, refusal);
        const step = (request.json as { stream?: boolean }).stream ? reply.stream! : reply.create!;
        response.writeHead(200, step.headers);
        response.end(step.body as string);
      });
      const subject = model();
      const output = await run(subject, { messages: user, tools: [weather], toolChoice: "auto" });
      expect(server.requests).toHaveLength(2);
      expect(server.requests[0]!.json.tool_choice).toBe("auto");
      expect(server.requests[1]!.json.tools).toHaveLength(1);
      expect(server.requests[1]!.json).not.toHaveProperty("tool_choice");
      expect(subject.toolChoiceSupport.has("auto")).toBe(false);
      expect(output.text).toBe("no tool needed");
    });

    it("should not mark a 400 about another parameter as a tool_choice refusal", async () => {
      server.handle((_request, response) =>
        sendJSON(
          response,
          400,
          readOwnOpenAIFixture("error-400-tool-choice.json")
            .replace('"tool_choice"', '"messages[0].role"')
            .replace(
              "Invalid value: 'required'. Supported values are: 'none' and 'auto'.",
              "Unsupported value: 'messages[0].role' does not support 'system' with this model.",
            ),
        ),
      );
      const subject = model({ toolChoiceSupport: ["auto", "none", "required", "single"] });
      const error = await run(subject, { messages: user, tools: [weather], toolChoice: "required" }).catch(
        (caught: unknown) => caught,
      );
      expect(error).toMatchObject({ statusCode: 400, reason: "invalid-request", rejectedParameter: undefined });
      expect(server.requests).toHaveLength(1);
      expect(subject.toolChoiceSupport.has("required")).toBe(true);
    });

    it("should read reasoning_content from an OpenAI-compatible server", async () => {
      const completion = {
        id: "c",
        object: "chat.completion",
        created: 1,
        model: "deepseek-reasoner",
        choices: [
          {
            index: 0,
            message: { role: "assistant", content: "42", reasoning_content: "Think." },
            finish_reason: "stop",
          },
        ],
        usage: { prompt_tokens: 1, completion_tokens: 2, total_tokens: 3 },
      };
      const chunk = (delta: object, finish: string | null) =>
        `data: ${JSON.stringify({ id: "c", object: "chat.completion.chunk", created: 1, model: "m", choices: [{ index: 0, delta, finish_reason: finish }] })}\n\n`;
      server.handle((request, response) => {
        if (!(request.json as { stream?: boolean }).stream) return sendJSON(response, 200, completion);
        response.writeHead(200, { "content-type": "text/event-stream" });
        response.end(
          chunk({ reasoning_content: "Thi" }, null) +
            chunk({ reasoning_content: "nk." }, null) +
            chunk({ content: "42" }, "stop") +
            "data: [DONE]\n\n",
        );
      });
      const output = await run(model(), { messages: user });
      expect(output.reasoning).toBe("Think.");
      expect(output.text).toBe("42");
    });

    it("should report a refusal as its text with finish reason content-filter", async () => {
      const refusal = "I'm sorry, I can't help with that.";
      server.handle((request, response) => {
        if (!(request.json as { stream?: boolean }).stream) {
          return sendJSON(response, 200, {
            id: "c",
            object: "chat.completion",
            created: 1,
            model: "m",
            choices: [{ index: 0, message: { role: "assistant", content: null, refusal }, finish_reason: "stop" }],
          });
        }
        response.writeHead(200, { "content-type": "text/event-stream" });
        const payload = {
          id: "c",
          object: "chat.completion.chunk",
          created: 1,
          model: "m",
          choices: [{ index: 0, delta: { refusal }, finish_reason: "stop" }],
        };
        response.end(`data: ${JSON.stringify(payload)}\n\ndata: [DONE]\n\n`);
      });
      const output = await run(model(), { messages: user });
      expect(output.text).toBe(refusal);
      expect(output.finishReason).toBe("content-filter");
    });
  });

  it("should stream with stream_options.include_usage and pass the raw chunks through", async () => {
    answerWith("chat-text-reasoning-usage.json", "chat-text.sse");
    const output = await model().createStream({ messages: user }).final();
    expect(server.requests[0]!.json).toMatchObject({ stream: true, stream_options: { include_usage: true } });
    expect(output.usage).toEqual({
      inputTokens: 19,
      outputTokens: 10,
      totalTokens: 29,
      cachedInputTokens: 0,
      reasoningTokens: 0,
      // gpt-4o-mini's price from keelson's table: 19 in at $0.15, 10 out at $0.60 per million.
      costUsd: (19 * 0.15 + 10 * 0.6) / 1e6,
    });
    expect(Array.isArray(output.raw)).toBe(true);
    expect((output.raw as unknown[]).length).toBe(7);
  });

  it("should keep the SDK response as raw for create", async () => {
    answerWith("chat-text-reasoning-usage.json", "chat-text.sse");
    const output = await model().create({ messages: user });
    expect(output.raw).toMatchObject({ id: "chatcmpl-own0001", object: "chat.completion", service_tier: "default" });
    expect(server.requests[0]!.json.stream).toBeFalsy();
  });

  it("should raise a server ProviderError for an error event inside the stream", async () => {
    server.handle((_request, response) => {
      response.writeHead(200, { "content-type": "text/event-stream" });
      const chunk = {
        id: "c",
        object: "chat.completion.chunk",
        created: 1,
        model: "m",
        choices: [{ index: 0, delta: { content: "Par" }, finish_reason: null }],
      };
      response.end(
        `data: ${JSON.stringify(chunk)}\n\ndata: ${JSON.stringify({ error: { message: "The server had an error while processing your request.", type: "server_error" } })}\n\n`,
      );
    });
    const chunks: string[] = [];
    const stream = model({ retry: { maxRetries: 0 } }).createStream({ messages: user });
    const error = await (async () => {
      for await (const chunk of stream) if (chunk.type === "text-delta") chunks.push(chunk.text);
    })().catch((caught: unknown) => caught);
    expect(chunks).toEqual(["Par"]);
    expect(ProviderError.isInstance(error)).toBe(true);
    expect(error).toMatchObject({ reason: "server", isRetryable: true, statusCode: undefined });
    expect((error as Error).message).toContain("The server had an error");
  });

  it("should read retry-after-ms into retryAfterMs", async () => {
    server.handle((_request, response) =>
      sendJSON(response, 429, readOwnOpenAIFixture("error-429-rate-limit.json"), { "retry-after-ms": "1500" }),
    );
    const error = await model({ retry: { maxRetries: 0 } })
      .create({ messages: user })
      .catch((caught: unknown) => caught);
    expect(error).toMatchObject({ statusCode: 429, retryAfterMs: 1500, isRetryable: true });
  });

  it("should raise a retryable network ProviderError when the server cannot be reached", async () => {
    const url = server.url;
    await server.close();
    const error = await new OpenAIChatModel("gpt-4o-mini", { baseURL: url, apiKey, retry: { maxRetries: 0 } })
      .create({ messages: user })
      .catch((caught: unknown) => caught);
    expect(ProviderError.isInstance(error)).toBe(true);
    expect(error).toMatchObject({ reason: "network", isRetryable: true, statusCode: undefined });
    server = await startLoopbackServer();
  });

  it("should raise a timeout ProviderError when the SDK's timeout passes", async () => {
    server.handle(() => undefined); // never answers
    const client = new OpenAI({ baseURL: server.url, apiKey, maxRetries: 0, timeout: 50 });
    const error = await model({ client, retry: { maxRetries: 0 } })
      .create({ messages: user })
      .catch((caught: unknown) => caught);
    expect(error).toMatchObject({ reason: "timeout", isRetryable: true });
  });

  it("should use a given client as it is", async () => {
    answerText("ok");
    const client = new OpenAI({
      baseURL: `${server.url}/custom`,
      apiKey: "sk-other-key-456",
      maxRetries: 0,
      defaultHeaders: { "x-own": "yes" },
    });
    const subject = new OpenAIChatModel("gpt-4o-mini", { client });
    await subject.create({ messages: user });
    expect(subject.client).toBe(client);
    expect(server.requests[0]!.url).toBe("/custom/chat/completions");
    expect(server.requests[0]!.headers["x-own"]).toBe("yes");
    expect(server.requests[0]!.headers.authorization).toBe("Bearer sk-other-key-456");
  });

  it("should send the organization and extra headers", async () => {
    answerText("ok");
    await model({ organization: "org-own", headers: { "x-trace": "t-1" } }).create({ messages: user });
    expect(server.requests[0]!.headers["openai-organization"]).toBe("org-own");
    expect(server.requests[0]!.headers["x-trace"]).toBe("t-1");
  });

  describe("profile", () => {
    it("should support all four tool_choice values on api.openai.com, with max_completion_tokens", () => {
      const subject = new OpenAIChatModel("gpt-4o", { apiKey });
      expect([...subject.toolChoiceSupport].sort()).toEqual(["auto", "none", "required", "single"]);
      expect(subject.maxTokensField).toBe("max_completion_tokens");
      expect(subject.supportsStructuredOutput).toBe(true);
      expect(subject.supportsTopLevelUnion).toBe(false);
      expect(subject.strictResponseFormat).toBe(true);
    });

    it("should drop 'required' for a custom baseURL and send max_tokens there", async () => {
      answerText("ok");
      const subject = model();
      expect([...subject.toolChoiceSupport].sort()).toEqual(["auto", "none", "single"]);
      await subject.create({ messages: user, parameters: { maxTokens: 50 } });
      expect(server.requests[0]!.json.max_tokens).toBe(50);
      expect(server.requests[0]!.json).not.toHaveProperty("max_completion_tokens");
    });

    it("should keep the caller's toolChoiceSupport for a custom baseURL", () => {
      expect([...model({ toolChoiceSupport: ["auto", "required"] }).toolChoiceSupport]).toEqual(["auto", "required"]);
    });
  });

  describe("signals", () => {
    it("should hand the SDK a signal only when something can abort the call", async () => {
      answerText("ok");
      const subject = model();
      const create = vi.spyOn(subject.client.chat.completions, "create");
      await subject.create({ messages: user });
      expect(create.mock.calls[0]![1]).toEqual({});
      const controller = new AbortController();
      await subject.create({ messages: user, signal: controller.signal });
      expect(create.mock.calls[1]![1]).toEqual({ signal: expect.any(AbortSignal) });
      expect(getEventListeners(controller.signal, "abort")).toHaveLength(0);
    });
  });

  describe("environment", () => {
    afterEach(() => {
      vi.unstubAllEnvs();
    });

    it("should read OPENAI_API_KEY and OPENAI_BASE_URL", async () => {
      answerText("ok");
      vi.stubEnv("OPENAI_API_KEY", "sk-from-env-789");
      vi.stubEnv("OPENAI_BASE_URL", `${server.url}/env`);
      await new OpenAIChatModel("gpt-4o-mini").create({ messages: user });
      expect(server.requests[0]!.url).toBe("/env/chat/completions");
      expect(server.requests[0]!.headers.authorization).toBe("Bearer sk-from-env-789");
    });

    it("should throw a TypeError naming OPENAI_API_KEY when api.openai.com has no key", () => {
      vi.stubEnv("OPENAI_API_KEY", "");
      vi.stubEnv("OPENAI_BASE_URL", "");
      expect(() => new OpenAIChatModel("gpt-4o")).toThrow(/OPENAI_API_KEY/);
    });
  });
});

describe("mapOpenAIError", () => {
  it("should turn the SDK's own abort error (named 'Error') into the platform AbortError", async () => {
    const { APIUserAbortError } = await import("openai");
    const { isAbortError } = await import("../../../src/internal/abort.js");
    const { mapOpenAIError } = await import("../../../src/adapters/openai/openai-error.js");
    const mapped = mapOpenAIError(new APIUserAbortError(), { providerId: "openai", modelId: "gpt-4o-mini" });
    expect(mapped).toMatchObject({ name: "AbortError" });
    expect(isAbortError(mapped)).toBe(true);
  });
});
