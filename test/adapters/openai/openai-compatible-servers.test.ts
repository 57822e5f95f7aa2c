// What OpenAI-compatible servers (and OpenAI's own reasoning models) do differently from the reference
// API, each quoted from the issue threads that report it.
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { AzureOpenAIChatModel } from "../../../src/adapters/azure-openai/index.js";
import { OpenAIChatModel } from "../../../src/adapters/openai/index.js";
import { ProviderError } from "../../../src/index.js";
import type { LoopbackServer } from "../../support/loopback-server.js";
import { sendJSON, startLoopbackServer } from "../../support/loopback-server.js";
import { answerWithStream, openAITextReply, streamChunk } from "../../support/openai-wire.js";
import { call, callModes } from "../../support/run-modes.js";

const apiKey = "sk-test-SENTINEL-123";
const user = [{ role: "user" as const, content: "Weather in Paris and Rome?" }];
const cityTool = (name: string) => ({
  name,
  inputSchema: { type: "object", properties: { city: { type: "string" } }, required: ["city"] },
});

let server: LoopbackServer;
beforeEach(async () => {
  server = await startLoopbackServer();
});
afterEach(async () => {
  await server.close();
});

describe("OpenAIChatModel", () => {
  // Gemini's OpenAI-compatible endpoint (and some proxies) stream tool-call deltas without
  // `index` (openai/openai-python#2806, AstrBotDevs/AstrBot#6661, THU-MAIC/OpenMAIC#1556).
  describe("streamed tool-call deltas without index", () => {
    const chunk = (delta: object, finish: string | null = null) => streamChunk(delta, finish, "gemini-2.5-flash");
    const answer = (payloads: string[]) => answerWithStream(server, payloads);
    const model = () =>
      new OpenAIChatModel("gemini-2.5-flash", {
        baseURL: `${server.url}/v1`,
        apiKey,
        allowParallelToolCalls: true,
        retry: { maxRetries: 0 },
        maxRepairAttempts: 0,
      });

    it("should keep two calls sent in separate chunks apart", async () => {
      answer([
        chunk({
          role: "assistant",
          tool_calls: [
            { id: "function-call-1", type: "function", function: { name: "weather", arguments: '{"city":"Paris"}' } },
          ],
        }),
        chunk({
          tool_calls: [
            { id: "function-call-2", type: "function", function: { name: "time", arguments: '{"city":"Rome"}' } },
          ],
        }),
        chunk({}, "stop"),
      ]);
      const output = await model()
        .createStream({ messages: user, tools: [cityTool("weather"), cityTool("time")] })
        .final();
      expect(output.toolCalls).toEqual([
        { type: "tool-call", id: "function-call-1", name: "weather", args: { city: "Paris" } },
        { type: "tool-call", id: "function-call-2", name: "time", args: { city: "Rome" } },
      ]);
    });

    it("should keep two calls sent in one chunk apart", async () => {
      answer([
        chunk({
          role: "assistant",
          tool_calls: [
            { id: "function-call-1", type: "function", function: { name: "weather", arguments: '{"city":"Paris"}' } },
            { id: "function-call-2", type: "function", function: { name: "weather", arguments: '{"city":"Rome"}' } },
          ],
        }),
        chunk({}, "stop"),
      ]);
      const output = await model()
        .createStream({ messages: user, tools: [cityTool("weather")] })
        .final();
      expect(output.toolCalls.map(({ id, args }) => ({ id, args }))).toEqual([
        { id: "function-call-1", args: { city: "Paris" } },
        { id: "function-call-2", args: { city: "Rome" } },
      ]);
    });

    it("should join index-less argument fragments onto the call they continue", async () => {
      answer([
        chunk({
          role: "assistant",
          tool_calls: [
            { id: "function-call-1", type: "function", function: { name: "weather", arguments: '{"city":' } },
          ],
        }),
        chunk({ tool_calls: [{ function: { arguments: '"Paris"}' } }] }),
        chunk({}, "stop"),
      ]);
      const output = await model()
        .createStream({ messages: user, tools: [cityTool("weather")] })
        .final();
      expect(output.toolCalls).toEqual([
        { type: "tool-call", id: "function-call-1", name: "weather", args: { city: "Paris" } },
      ]);
    });
  });

  // vLLM and SGLang stream every call of a parallel reply under `index: 0`, each with its own id;
  // vLLM's later fragments carry `id: ''`, SGLang's repeat the call's id (the ChoiceDeltaToolCall
  // traces quoted in InternLM/lmdeploy#3412; also sgl-project/sglang#6310, agno-agi/agno#8880).
  describe("streamed tool calls that all carry index 0", () => {
    const chunk = (delta: object, finish: string | null = null) => streamChunk(delta, finish, "Qwen3-8B");
    const call = (id: string, fields: { name?: string; arguments: string }) => ({
      tool_calls: [{ index: 0, id, type: "function", function: fields }],
    });
    const answer = (payloads: string[]) => answerWithStream(server, payloads);
    const model = () =>
      new OpenAIChatModel("Qwen3-8B", {
        baseURL: `${server.url}/v1`,
        apiKey,
        allowParallelToolCalls: true,
        retry: { maxRetries: 0 },
        maxRepairAttempts: 0,
      });
    const expected = [
      { type: "tool-call", id: "call-a", name: "weather", args: { city: "Paris" } },
      { type: "tool-call", id: "call-b", name: "time", args: { city: "Rome" } },
    ];

    it("should keep two calls apart when each starts with a new id and goes on with an empty one (vLLM)", async () => {
      answer([
        chunk({ role: "assistant", ...call("call-a", { name: "weather", arguments: "" }) }),
        chunk(call("", { arguments: '{"city":"Paris"}' })),
        chunk(call("call-b", { name: "time", arguments: "" })),
        chunk(call("", { arguments: '{"city":"Rome"}' })),
        chunk({}, "tool_calls"),
      ]);
      const output = await model()
        .createStream({ messages: user, tools: [cityTool("weather"), cityTool("time")] })
        .final();
      expect(output.toolCalls).toEqual(expected);
    });

    it("should keep two calls apart when every fragment repeats its call's id (SGLang)", async () => {
      answer([
        chunk({ role: "assistant", ...call("call-a", { name: "weather", arguments: "" }) }),
        chunk(call("call-a", { arguments: '{"city":"Paris"}' })),
        chunk(call("call-b", { name: "time", arguments: "" })),
        chunk(call("call-b", { arguments: '{"city":"Rome"}' })),
        chunk({}, "tool_calls"),
      ]);
      const output = await model()
        .createStream({ messages: user, tools: [cityTool("weather"), cityTool("time")] })
        .final();
      expect(output.toolCalls).toEqual(expected);
    });
  });

  // o1, o3, o3-mini and o4-mini answer any `parallel_tool_calls` with this 400 (body as quoted in
  // evalstate/fast-agent#279, browser-use/web-ui#648, bosun-ai/kwaak#392).
  describe("a model that refuses parallel_tool_calls", () => {
    const refusal = {
      error: {
        message: "Unsupported parameter: 'parallel_tool_calls' is not supported with this model.",
        type: "invalid_request_error",
        param: "parallel_tool_calls",
        code: "unsupported_parameter",
      },
    };
    const reply = openAITextReply("It is sunny.");
    const refuseParallelToolCalls = () =>
      server.handle((request, response) => {
        if ("parallel_tool_calls" in (request.json as object)) return sendJSON(response, 400, refusal);
        const step = (request.json as { stream?: boolean }).stream ? reply.stream! : reply.create!;
        response.writeHead(200, step.headers);
        response.end(step.body as string);
      });

    describe.each(callModes)("%s", (mode) => {
      it("should answer a tool call on an OpenAI reasoning model instead of failing every call with a 400", async () => {
        refuseParallelToolCalls();
        // No retries: the request goes again without the field at once, not as a retry after a back-off.
        const model = new OpenAIChatModel("o4-mini", { baseURL: `${server.url}/v1`, apiKey, retry: { maxRetries: 0 } });
        let retries = 0;
        model.emitter.on("retry", () => void retries++);
        const output = await call(model, { messages: user, tools: [cityTool("weather")] }, mode);
        expect(output.text).toBe("It is sunny.");
        expect(server.requests.map((request) => "parallel_tool_calls" in request.json)).toEqual([true, false]);
        expect(retries).toBe(0);
        // And the next call goes out without the field at once.
        await call(model, { messages: user, tools: [cityTool("weather")] }, mode);
        expect(server.requests.map((request) => "parallel_tool_calls" in request.json)).toEqual([true, false, false]);
      });

      it("should leave a parallel_tool_calls the caller set in providerOptions, and its refusal, to the caller", async () => {
        refuseParallelToolCalls();
        const model = new OpenAIChatModel("o4-mini", { baseURL: `${server.url}/v1`, apiKey, retry: { maxRetries: 0 } });
        const input = { messages: user, tools: [cityTool("weather")], providerOptions: { parallel_tool_calls: true } };
        await expect(call(model, input, mode)).rejects.toThrow(/parallel_tool_calls/);
        expect(server.requests).toHaveLength(1);
      });

      it("should learn it on an Azure deployment whose name says nothing of the model", async () => {
        refuseParallelToolCalls();
        const model = new AzureOpenAIChatModel("reasoning-prod", {
          endpoint: server.url,
          apiKey,
          apiVersion: "2024-12-01-preview",
          retry: { maxRetries: 0 },
        });
        const output = await call(model, { messages: user, tools: [cityTool("weather")] }, mode);
        expect(output.text).toBe("It is sunny.");
      });
    });
  });

  // Groq and Cerebras answer 400 to an assistant message that carries `reasoning_content`. Groq's
  // message as quoted in janhq/jan#8136 (gpt-oss-120b), in Groq's error envelope as quoted in
  // musistudio/claude-code-router#1204; Cerebras's body as recorded in Kilo-Org/kilocode#10375 (no
  // `error` envelope: its message is at the top level).
  const refusals = {
    Groq: {
      error: {
        message:
          "'messages.1' : for 'role:assistant' the following must be satisfied[('messages.1' : property 'reasoning_content' is unsupported)]",
        type: "invalid_request_error",
      },
    },
    Cerebras: {
      message:
        "messages.2.assistant.reasoning_content: property 'messages.2.assistant.reasoning_content' is unsupported",
      type: "invalid_request_error",
      param: "validation_error",
      code: "wrong_api_format",
    },
  };

  describe("an error body without the error envelope (Cerebras)", () => {
    it("should report the server's own message, not '400 status code (no body)'", async () => {
      server.handle((_request, response) => sendJSON(response, 400, refusals.Cerebras));
      const model = new OpenAIChatModel("gpt-oss-120b", {
        baseURL: `${server.url}/v1`,
        apiKey,
        retry: { maxRetries: 0 },
      });
      const error = (await model.create({ messages: user }).then(
        () => undefined,
        (caught: unknown) => caught,
      )) as ProviderError;
      expect(error).toBeInstanceOf(ProviderError);
      expect(error.message).toContain("property 'messages.2.assistant.reasoning_content' is unsupported");
      expect(error.code).toBe("wrong_api_format");
      expect(error.reason).toBe("invalid-request");
    });
  });

  describe.each(Object.entries(refusals))("a server that refuses reasoning_content (%s)", (_server, refusal) => {
    const history = [
      ...user,
      {
        role: "assistant" as const,
        content: [
          { type: "reasoning" as const, text: "I should look the weather up." },
          { type: "tool-call" as const, id: "call_1", name: "weather", args: { city: "Paris" } },
        ],
      },
      { role: "tool" as const, toolCallId: "call_1", toolName: "weather", content: "Sunny." },
    ];
    const carriesReasoning = (json: { messages: object[] }) =>
      json.messages.some((message) => "reasoning_content" in message);
    const reply = openAITextReply("It is sunny.");

    describe.each(callModes)("%s", (mode) => {
      it("should answer after a reasoning model's tool call instead of failing every later turn with a 400", async () => {
        server.handle((request, response) => {
          if (carriesReasoning(request.json)) return sendJSON(response, 400, refusal);
          const step = (request.json as { stream?: boolean }).stream ? reply.stream! : reply.create!;
          response.writeHead(200, step.headers);
          response.end(step.body as string);
        });
        const model = new OpenAIChatModel("openai/gpt-oss-120b", {
          baseURL: `${server.url}/openai/v1`,
          apiKey,
          retry: { maxRetries: 0 },
        });
        const output = await call(model, { messages: history, tools: [cityTool("weather")] }, mode);
        expect(output.text).toBe("It is sunny.");
        expect(server.requests.map((request) => carriesReasoning(request.json))).toEqual([true, false]);
        await call(model, { messages: history, tools: [cityTool("weather")] }, mode);
        expect(server.requests.map((request) => carriesReasoning(request.json))).toEqual([true, false, false]);
      });
    });
  });

  // Mistral's API (and Mistral models on Azure AI Foundry) leave `type` out of its tool calls
  // (agentjido/req_llm#373, vercel/ai#12901): the call is still a function call.
  describe("tool calls without type", () => {
    it("should read a non-streamed tool call that has no type field", async () => {
      server.handle((_request, response) =>
        sendJSON(response, 200, {
          id: "cmpl-mistral",
          object: "chat.completion",
          created: 1,
          model: "mistral-large-latest",
          choices: [
            {
              index: 0,
              message: {
                role: "assistant",
                content: "",
                tool_calls: [
                  { id: "D681PevKs", function: { name: "weather", arguments: '{"city":"Paris"}' }, index: 0 },
                ],
              },
              finish_reason: "tool_calls",
            },
          ],
          usage: { prompt_tokens: 60, completion_tokens: 12, total_tokens: 72 },
        }),
      );
      const model = new OpenAIChatModel("mistral-large-latest", {
        baseURL: `${server.url}/v1`,
        apiKey,
        retry: { maxRetries: 0 },
        maxRepairAttempts: 0,
      });
      const output = await model.create({ messages: user, tools: [cityTool("weather")] });
      expect(output.toolCalls).toEqual([
        { type: "tool-call", id: "D681PevKs", name: "weather", args: { city: "Paris" } },
      ]);
      expect(output.finishReason).toBe("tool-calls");
    });
  });
});
