import { describe, expect, it } from "vitest";
import { defineTool, toolUnionSchema } from "../../../src/index.js";
import type { Message } from "../../../src/index.js";
import { useLoopbackServer } from "../../support/loopback-server.js";
import { callModes, runCall } from "../../support/run-modes.js";
import {
  hasSharedFixtures,
  missingFixturesMessage,
  readFixture,
  readJSONFixture,
} from "../../support/shared-fixtures.js";
import { createOllamaModel, replyError, replyNDJSON, replyWith } from "./ollama-harness.js";

const weatherTool = defineTool({
  name: "get_weather",
  description: "Get the current weather for a city",
  inputSchema: {
    type: "object",
    properties: { city: { type: "string", description: "The name of the city" } },
    required: ["city"],
  },
});

const currentWeatherTool = defineTool({
  name: "get_current_weather",
  description: "Get the current weather for a location",
  inputSchema: {
    type: "object",
    properties: {
      location: { type: "string", description: "The location to get the weather for, e.g. San Francisco, CA" },
      format: { type: "string", enum: ["celsius", "fahrenheit"] },
    },
    required: ["location", "format"],
  },
});

// The tool qwen3:32b was asked to call in ollama/ollama#11185 (its reply is in the fixture).
const ragTool = defineTool({
  name: "LLM_Tool_RAG",
  description: "Search the case-law index",
  inputSchema: {
    type: "object",
    properties: { term: { type: "string" }, vector: { type: "string" } },
    required: ["term", "vector"],
  },
});

const user = (content: string): Message => ({ role: "user", content });
const fixture = (name: string) => readJSONFixture<Record<string, any>>(`ollama/${name}`);
const callId = /^call_[a-z0-9]{8}$/;

describe.skipIf(!hasSharedFixtures)(
  hasSharedFixtures
    ? "OllamaChatModel (recorded traffic)"
    : `OllamaChatModel (recorded traffic): ${missingFixturesMessage}`,
  () => {
    const server = useLoopbackServer();

    describe.each(callModes)("through %s", (mode) => {
      it("should send the tools on auto and return the call with an object's arguments and a call_ id", async () => {
        const body = fixture("api-chat-nonstream-one-tool-call.docs.json");
        server.handle(replyWith(body));
        const model = createOllamaModel(server.url);
        // Tools without tool_choice is Ollama's own auto: nothing fell back, so nothing says it did.
        const fallbacks: unknown[] = [];
        model.emitter.on("fallback", (event) => fallbacks.push(event));
        const { output, chunks } = await runCall(
          model,
          { messages: [user("What is the weather in Tokyo?")], tools: [weatherTool] },
          mode,
        );

        const sent = server.requests[0]!;
        expect(sent.method).toBe("POST");
        expect(sent.url).toBe("/api/chat");
        expect(sent.json.model).toBe("llama3.2");
        expect(sent.json.stream).toBe(mode === "createStream");
        expect(sent.json.tools).toEqual([
          {
            type: "function",
            function: { name: "get_weather", description: weatherTool.description, parameters: weatherTool.parameters },
          },
        ]);
        expect(sent.json).not.toHaveProperty("format");
        expect(sent.json).not.toHaveProperty("tool_choice");

        expect(output.toolCalls).toHaveLength(1);
        expect(output.toolCalls[0]).toMatchObject({ type: "tool-call", name: "get_weather", args: { city: "Tokyo" } });
        expect(output.toolCalls[0]!.id).toMatch(callId);
        expect(output.finishReason).toBe("tool-calls");
        expect(output.usage).toEqual({ inputTokens: 169, outputTokens: 18, totalTokens: 187 });
        expect(output.meta.toolChoice).toBe("native");
        expect(fallbacks).toEqual([]);
        if (mode === "create") expect(output.raw).toEqual(body);
        else
          expect(chunks.filter((chunk) => chunk.type === "tool-call")).toEqual([
            { type: "tool-call", toolCall: output.toolCalls[0] },
          ]);
      });

      it("should read a call with two arguments", async () => {
        server.handle(replyWith(fixture("api-chat-nonstream-one-tool-call-two-args.docs.json")));
        const model = createOllamaModel(server.url);
        const { output } = await runCall(
          model,
          { messages: [user("Weather in Paris?")], tools: [currentWeatherTool] },
          mode,
        );
        expect(output.toolCalls.map(({ name, args }) => ({ name, args }))).toEqual([
          { name: "get_current_weather", args: { format: "celsius", location: "Paris, FR" } },
        ]);
        expect(output.usage.inputTokens).toBe(122);
        expect(output.usage.outputTokens).toBe(33);
      });

      it("should force a required call through format with the tool-union schema and no tools on the wire", async () => {
        // qwen3 wrote its call as JSON text in `content` (ollama/ollama#11185): on the forced path that is the answer.
        server.handle(replyWith(fixture("api-chat-nonstream-tool-call-as-json-in-content.issue-11185.json")));
        const model = createOllamaModel(server.url, {}, "qwen3:32b");
        const { output, chunks } = await runCall(
          model,
          {
            messages: [user("Trouve les jugements sur les accidents à Versailles")],
            tools: [ragTool],
            toolChoice: "required",
          },
          mode,
        );

        const sent = server.requests[0]!.json;
        expect(sent).not.toHaveProperty("tools");
        expect(sent).not.toHaveProperty("tool_choice");
        expect(sent.format).toEqual(toolUnionSchema([ragTool]));
        expect(sent.format.properties.name).toEqual({ type: "string", enum: ["LLM_Tool_RAG"] });
        expect(sent.format.properties.parameters.required).toEqual(["term", "vector"]);

        expect(output.meta.toolChoice).toBe("response-format");
        expect(output.text).toBe("");
        expect(output.toolCalls).toHaveLength(1);
        expect(output.toolCalls[0]).toMatchObject({
          name: "LLM_Tool_RAG",
          args: { term: "accidents, tribunal de Versailles", vector: "accidents tribunal Versailles jugements" },
        });
        expect(output.toolCalls[0]!.id).toMatch(callId);
        expect(output.finishReason).toBe("tool-calls");
        expect(output.usage).toEqual({ inputTokens: 583, outputTokens: 39, totalTokens: 622 });
        // The raw JSON is held back on this rung: the caller sees the call, not its text.
        expect(chunks.some((chunk) => chunk.type === "text-delta")).toBe(false);
      });

      it("should force one named tool through format holding only that tool", async () => {
        server.handle(replyWith(fixture("api-chat-nonstream-tool-call-as-json-in-content.issue-11185.json")));
        const model = createOllamaModel(server.url, {}, "qwen3:32b");
        const { output } = await runCall(
          model,
          {
            messages: [user("Cherche")],
            tools: [weatherTool, ragTool],
            toolChoice: { type: "tool", name: "LLM_Tool_RAG" },
          },
          mode,
        );
        const sent = server.requests[0]!.json;
        expect(sent).not.toHaveProperty("tools");
        expect(sent.format).toEqual(toolUnionSchema([ragTool]));
        expect(output.toolCalls.map((call) => call.name)).toEqual(["LLM_Tool_RAG"]);
      });

      it("should send neither tools nor format when toolChoice is none", async () => {
        server.handle(replyWith(fixture("api-chat-nonstream-text-after-tool-result.docs.json")));
        const model = createOllamaModel(server.url);
        const { output } = await runCall(
          model,
          { messages: [user("Just chat")], tools: [weatherTool], toolChoice: "none" },
          mode,
        );
        const sent = server.requests[0]!.json;
        expect(sent).not.toHaveProperty("tools");
        expect(sent).not.toHaveProperty("format");
        expect(output.text).toBe("The current temperature in Toronto is 11°C.");
        expect(output.toolCalls).toEqual([]);
      });

      it("should send the history back with tool calls as objects and tool results with tool_name", async () => {
        server.handle(replyWith(fixture("api-chat-nonstream-text-after-tool-result.docs.json")));
        const model = createOllamaModel(server.url);
        const messages: Message[] = [
          user("What is the weather in Toronto?"),
          {
            role: "assistant",
            content: [{ type: "tool-call", id: "call_abc12345", name: "get_weather", args: { city: "Toronto" } }],
          },
          { role: "tool", toolCallId: "call_abc12345", toolName: "get_weather", content: "11 degrees celsius" },
        ];
        const { output } = await runCall(model, { messages, tools: [weatherTool] }, mode);
        expect(server.requests[0]!.json.messages).toEqual([
          { role: "user", content: "What is the weather in Toronto?" },
          {
            role: "assistant",
            content: "",
            tool_calls: [{ function: { name: "get_weather", arguments: { city: "Toronto" } } }],
          },
          { role: "tool", content: "11 degrees celsius", tool_name: "get_weather" },
        ]);
        expect(output.text).toBe("The current temperature in Toronto is 11°C.");
        expect(output.finishReason).toBe("stop");
        expect(output.usage).toEqual({ inputTokens: 94, outputTokens: 11, totalTokens: 105 });
      });

      it("should send a response schema as format and parse the object", async () => {
        server.handle(replyWith(fixture("api-chat-nonstream-format-json-schema.docs.json")));
        const model = createOllamaModel(server.url, {}, "llama3.1");
        const schema = {
          type: "object",
          properties: { age: { type: "integer" }, available: { type: "boolean" } },
          required: ["age", "available"],
        };
        const { output } = await runCall(
          model,
          { messages: [user("Ollama is 22 years old and busy.")], responseFormat: schema },
          mode,
        );
        expect(server.requests[0]!.json.format).toEqual(schema);
        expect(output.object).toEqual({ age: 22, available: false });
      });
    });

    it("should stream a tool call that arrives whole in one chunk", async () => {
      server.handle(replyNDJSON(readFixture("ollama/api-chat-stream-tool-call.docs.ndjson")));
      const model = createOllamaModel(server.url);
      const stream = model.createStream({ messages: [user("What is the weather in Tokyo?")], tools: [weatherTool] });
      const chunks = [];
      for await (const chunk of stream) chunks.push(chunk);
      const output = await stream.final();
      expect(chunks.map((chunk) => chunk.type)).toEqual(["tool-call", "finish"]);
      expect(chunks[0]).toMatchObject({
        type: "tool-call",
        toolCall: { name: "get_weather", args: { city: "Tokyo" } },
      });
      expect((chunks[0] as { toolCall: { id: string } }).toolCall.id).toMatch(callId);
      expect(chunks[1]).toEqual({
        type: "finish",
        finishReason: "tool-calls",
        usage: { inputTokens: 169, outputTokens: 15, totalTokens: 184 },
      });
      expect(output.raw).toMatchObject({ done: true, done_reason: "stop", eval_count: 15 });
    });

    describe("a 500 'error parsing tool call' (ollama/ollama#12064)", () => {
      // The server's message, as the Python client quoted it: "ResponseError: <message> (status code: 500)".
      // Read when a test runs, never in this body: vitest runs a skipped describe's body too, and a
      // clone without ../shared must skip, not fail with ENOENT.
      const postedMessage = (): string => {
        const quotes = readJSONFixture<{ thread: string; posted_output: string }[]>(
          "malformed-tool-calls/issue-thread-quotes.json",
        );
        const posted = quotes.find((quote) => quote.thread === "ollama/ollama#12064")!.posted_output;
        return /ResponseError: (.*) \(status code: 500\)$/.exec(posted)![1]!;
      };

      it("should be a retryable server error with the status, the SDK error as cause and a hint", async () => {
        const message = postedMessage();
        server.handle(replyError(500, { error: message }));
        const model = createOllamaModel(server.url, {}, "gpt-oss:120b");
        const error = await model
          .create({ messages: [user("patch it")], tools: [weatherTool] })
          .catch((caught: unknown) => caught);
        expect(error).toMatchObject({
          name: "ProviderError",
          statusCode: 500,
          reason: "server",
          isRetryable: true,
          code: "tool_call_parse_error",
          providerId: "ollama",
          modelId: "gpt-oss:120b",
        });
        expect((error as Error).message).toContain(message);
        expect((error as Error).message).toContain("toolChoice 'required'");
        expect((error as Error).cause).toMatchObject({ name: "ResponseError", status_code: 500 });
      });

      it.each(callModes)("should be retried by the base class and succeed on the next sample (%s)", async (mode) => {
        let served = 0;
        const ok = replyWith(fixture("api-chat-nonstream-one-tool-call.docs.json"));
        const fail = replyError(500, { error: postedMessage() });
        server.handle((request, reply) => (served++ === 0 ? fail(request, reply) : ok(request, reply)));
        const model = createOllamaModel(server.url, { retry: { maxRetries: 1, initialDelayMs: 1 } });
        const retries: unknown[] = [];
        model.emitter.on("retry", ({ error }) => retries.push(error));
        const { output } = await runCall(model, { messages: [user("Weather?")], tools: [weatherTool] }, mode);
        expect(server.requests).toHaveLength(2);
        expect(retries).toHaveLength(1);
        expect(retries[0]).toMatchObject({ statusCode: 500, code: "tool_call_parse_error" });
        expect(output.toolCalls[0]).toMatchObject({ name: "get_weather", args: { city: "Tokyo" } });
      });
    });
  },
);
