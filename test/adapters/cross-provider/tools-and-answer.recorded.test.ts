// Tools and a final answer in one call, on each adapter's recorded traffic (../shared/fixtures, read
// in place): the reply bodies are recorded ones, with only the tool name (or the content) changed to
// the answer's, and what reached the wire is asserted. API.md, "Tools and a final answer in one call".
import { describe, expect, it } from "vitest";
import { z } from "zod";
import { AnthropicChatModel } from "../../../src/adapters/anthropic/index.js";
import { OllamaChatModel } from "../../../src/adapters/ollama/index.js";
import { OpenAIChatModel } from "../../../src/adapters/openai/index.js";
import { defineTool } from "../../../src/index.js";
import { anthropicSSE } from "../../support/anthropic-wire.js";
import { encodeEvents } from "../../support/aws-event-stream.js";
import { parseNDJSON, useBedrockLoopback } from "../../support/bedrock-loopback.js";
import { sendEventStream, sendJSON as sendJSON2 } from "../../support/loopback-http2-server.js";
import { sendJSON, useLoopbackServer, type Handler } from "../../support/loopback-server.js";
import { ssePayloads, streamChunk } from "../../support/openai-wire.js";
import { toStreamParts, wantsStream } from "../ollama/ollama-harness.js";
import { sendNDJSON } from "../../support/ndjson.js";
import { callModes, runCall, user } from "../../support/run-modes.js";
import {
  hasSharedFixtures,
  missingFixturesMessage,
  readFixture,
  readJSONFixture,
} from "../../support/shared-fixtures.js";

const answerName = "keelson_final_answer";
const title = (folder: string) =>
  `replaying ../shared/fixtures/${folder}${hasSharedFixtures ? "" : ` (${missingFixturesMessage})`}`;
/** A recorded JSON body with its tool name replaced by the answer's. */
const renamed = (text: string, from: string) => text.replaceAll(`"name":"${from}"`, `"name":"${answerName}"`);
const compact = (relative: string) => JSON.stringify(readJSONFixture(relative));

describe("tools and a final answer on recorded traffic", () => {
  describe.skipIf(!hasSharedFixtures)(title("openai"), () => {
    const server = useLoopbackServer();
    const getCapital = defineTool({ name: "get_capital", inputSchema: z.object({ country: z.string() }) });
    const answer = z.object({ capital: z.string() });
    const model = () =>
      new OpenAIChatModel("gpt-4o-mini", { baseURL: `${server.url}/v1`, apiKey: "sk-test", retry: { maxRetries: 0 } });
    const openAI =
      (create: string, stream: string): Handler =>
      (request, response) => {
        if (request.json?.stream) {
          response.writeHead(200, { "content-type": "text/event-stream" });
          response.end(stream);
        } else sendJSON(response, 200, create);
      };

    describe.each(callModes)("through %s", (mode) => {
      it("should send the tools and the response format together, and read the answer as the object", async () => {
        const text = readJSONFixture<any>("openai/chat-nonstream-text.json");
        text.choices[0].message.content = '{"capital":"Paris"}';
        const stream = ssePayloads([
          streamChunk({ role: "assistant", content: '{"capital":' }),
          streamChunk({ content: '"Paris"}' }),
          streamChunk({}, "stop"),
        ]);
        server.handle(openAI(JSON.stringify(text), stream));
        const { output } = await runCall(
          model(),
          { messages: [user("Capital of France?")], tools: [getCapital], responseFormat: answer },
          mode,
        );
        const body = server.requests[0]!.json;
        expect(body.tools.map((tool: any) => tool.function.name)).toEqual(["get_capital"]);
        expect(body.tool_choice).toBe("auto");
        expect(body.response_format).toMatchObject({ type: "json_schema", json_schema: { strict: true } });
        expect(output.meta.toolChoice).toBe("native");
        expect(output.object).toEqual({ capital: "Paris" });
        expect(output.toolCalls).toEqual([]);
      });

      it("should return the recorded tool call and no object", async () => {
        const args = '{"country":"England"}';
        const stream = ssePayloads([
          streamChunk({
            role: "assistant",
            tool_calls: [
              {
                index: 0,
                id: "call_SkEQ3ZGSJC8m6AvaIGNuuKdm",
                type: "function",
                function: { name: "get_capital", arguments: "" },
              },
            ],
          }),
          streamChunk({ tool_calls: [{ index: 0, function: { arguments: args } }] }),
          streamChunk({}, "tool_calls"),
        ]);
        server.handle(openAI(compact("openai/chat-nonstream-one-tool-call.json"), stream));
        const { output } = await runCall(
          model(),
          { messages: [user("Capital of England?")], tools: [getCapital], responseFormat: answer },
          mode,
        );
        expect(output.object).toBeUndefined();
        expect(output.toolCalls).toEqual([
          { type: "tool-call", id: "call_SkEQ3ZGSJC8m6AvaIGNuuKdm", name: "get_capital", args: { country: "England" } },
        ]);
      });
    });
  });

  describe.skipIf(!hasSharedFixtures)(title("anthropic"), () => {
    const server = useLoopbackServer();
    // The recorded tool (messages-nonstream-one-tool-use-weather.json and its stream) is `weather`.
    const weather = defineTool({ name: "weather", inputSchema: z.object({ location: z.string() }) });
    const place = z.object({ location: z.string() });
    const model = () =>
      new AnthropicChatModel("claude-haiku-4-5", {
        baseURL: server.url,
        apiKey: "sk-ant-test",
        retry: { maxRetries: 0 },
      });
    const anthropic =
      (rename: boolean): Handler =>
      (request, response) => {
        const name = (text: string) => (rename ? renamed(text, "weather") : text);
        if (request.json?.stream) {
          const events = anthropicSSE(
            name(readFixture("anthropic/messages-stream-tool-use-input-split.chunks.ndjson")),
          );
          response.writeHead(200, events.headers);
          response.end(events.body as string);
        } else sendJSON(response, 200, name(compact("anthropic/messages-nonstream-one-tool-use-weather.json")));
      };

    describe.each(callModes)("through %s", (mode) => {
      it("should offer the answer as a tool beside the others, forced with 'any', and read its input as the object", async () => {
        server.handle(anthropic(true));
        const { output, chunks } = await runCall(
          model(),
          { messages: [user("Where?")], tools: [weather], responseFormat: place },
          mode,
        );
        const body = server.requests[0]!.json;
        expect(body.tools.map((tool: any) => tool.name)).toEqual(["weather", answerName]);
        expect(body.tools[1].input_schema).toMatchObject({ properties: { location: { type: "string" } } });
        expect(body.tool_choice).toMatchObject({ type: "any" });
        expect(body.output_config).toBeUndefined();
        expect(output.meta.toolChoice).toBe("native");
        expect(output.object).toEqual({ location: "San Francisco" });
        expect(output.toolCalls).toEqual([]);
        expect(output.finishReason).toBe("stop");
        expect(chunks.filter((chunk) => chunk.type === "tool-call")).toEqual([]);
      });

      it("should return the recorded tool call to a real tool, and no object", async () => {
        server.handle(anthropic(false));
        const { output } = await runCall(
          model(),
          { messages: [user("Weather?")], tools: [weather], responseFormat: place },
          mode,
        );
        expect(output.object).toBeUndefined();
        expect(output.toolCalls).toHaveLength(1);
        expect(output.toolCalls[0]).toMatchObject({ name: "weather", args: { location: "San Francisco" } });
        expect(output.finishReason).toBe("tool-calls");
      });
    });
  });

  describe.skipIf(!hasSharedFixtures)(title("bedrock"), () => {
    const bedrock = useBedrockLoopback();
    // The recorded tools: `temperature` (converse-nonstream-one-tool-use) and `get_temperature` (the stream).
    const temperature = defineTool({
      name: "temperature",
      inputSchema: z.object({ city: z.string(), date: z.string() }),
    });
    const getTemperature = defineTool({ name: "get_temperature", inputSchema: z.object({ city: z.string() }) });
    const reading = z.object({ city: z.string() }).passthrough();
    const bedrockReply = (mode: string, rename: boolean) => {
      const converse = compact("bedrock/converse-nonstream-one-tool-use.json");
      const events = readFixture("bedrock/converse-stream-text-then-tool-use.events.ndjson");
      return mode === "create"
        ? (_request: unknown, response: any) =>
            sendJSON2(response, 200, rename ? renamed(converse, "temperature") : converse)
        : (_request: unknown, response: any) =>
            sendEventStream(response, encodeEvents(parseNDJSON(rename ? renamed(events, "get_temperature") : events)));
    };

    describe.each(callModes)("through %s", (mode) => {
      // Claude 3.5 forces calls but has no structured output; Sonnet 4.5 has both, but not with tools.
      it.each(["anthropic.claude-3-5-sonnet-20240620-v1:0", "us.anthropic.claude-sonnet-4-5-20250929-v1:0"])(
        "should send the answer as a tool forced with 'any' on %s, and read its input as the object",
        async (modelId) => {
          bedrock.server.handle(bedrockReply(mode, true));
          const { output } = await runCall(
            bedrock.model(modelId, { retry: { maxRetries: 0 } }),
            {
              messages: [user("Temperature in the capital of France?")],
              tools: [temperature, getTemperature],
              responseFormat: reading,
            },
            mode,
          );
          const body = bedrock.server.requests[0]!.json;
          expect(body.toolConfig.tools.map((tool: any) => tool.toolSpec.name)).toEqual([
            "temperature",
            "get_temperature",
            answerName,
          ]);
          expect(body.toolConfig.toolChoice).toEqual({ any: {} });
          expect(body.outputConfig).toBeUndefined();
          expect(output.meta.toolChoice).toBe("native");
          expect(output.toolCalls).toEqual([]);
          expect(output.object).toMatchObject({ city: mode === "create" ? "London" : "Paris" });
          expect(output.text).toBe(JSON.stringify(output.object));
        },
      );

      it("should return the recorded tool call to a real tool, and no object", async () => {
        bedrock.server.handle(bedrockReply(mode, false));
        const { output } = await runCall(
          bedrock.model("anthropic.claude-3-5-sonnet-20240620-v1:0", { retry: { maxRetries: 0 } }),
          { messages: [user("Temperature?")], tools: [temperature, getTemperature], responseFormat: reading },
          mode,
        );
        expect(output.object).toBeUndefined();
        expect(output.toolCalls).toHaveLength(1);
        expect(output.toolCalls[0]!.name).toBe(mode === "create" ? "temperature" : "get_temperature");
      });
    });
  });

  describe.skipIf(!hasSharedFixtures)(title("ollama"), () => {
    const server = useLoopbackServer();
    // The recorded structured-output body answers `{"age": 22, "available": false}`; the recorded call is get_weather.
    const getWeather = defineTool({ name: "get_weather", inputSchema: z.object({ city: z.string() }) });
    const profile = z.object({ age: z.number(), available: z.boolean() });
    const model = () => new OllamaChatModel("llama3.1", { host: server.url, retry: { maxRetries: 0 } });
    /** The recorded `format` reply, its content the tool-union reply given. */
    const formatReply =
      (content: unknown): Handler =>
      (request, response) => {
        const body = readJSONFixture<any>("ollama/api-chat-nonstream-format-json-schema.docs.json");
        body.message.content = JSON.stringify(content);
        if (wantsStream(request)) return sendNDJSON(response, toStreamParts(body));
        sendJSON(response, 200, body);
      };

    describe.each(callModes)("through %s", (mode) => {
      it("should send one format for the tools and the answer (never tools with a format), and read the answer", async () => {
        server.handle(formatReply({ name: answerName, parameters: { age: 22, available: false } }));
        const { output } = await runCall(
          model(),
          { messages: [user("Ollama is 22 years old and busy.")], tools: [getWeather], responseFormat: profile },
          mode,
        );
        const body = server.requests[0]!.json;
        // ollama/ollama#11037: a format grammar beside tools blocks the tool calls.
        expect(body.tools).toBeUndefined();
        expect(body.format.anyOf.map((variant: any) => variant.properties.name.enum[0])).toEqual([
          "get_weather",
          answerName,
        ]);
        expect(body.format.anyOf[1].properties.parameters).toMatchObject({
          properties: { age: { type: "number" }, available: { type: "boolean" } },
        });
        expect(output.meta.toolChoice).toBe("response-format");
        expect(output.object).toEqual({ age: 22, available: false });
        expect(output.toolCalls).toEqual([]);
      });

      it("should read a tool call from the same format, with the recorded arguments", async () => {
        const recorded = readJSONFixture<any>("ollama/api-chat-nonstream-one-tool-call.docs.json");
        const { name, arguments: args } = recorded.message.tool_calls[0].function;
        server.handle(formatReply({ name, parameters: args }));
        const { output } = await runCall(
          model(),
          { messages: [user("Weather in Tokyo?")], tools: [getWeather], responseFormat: profile },
          mode,
        );
        expect(output.object).toBeUndefined();
        expect(output.toolCalls).toHaveLength(1);
        expect(output.toolCalls[0]).toMatchObject({ name: "get_weather", args: { city: "Tokyo" } });
        expect(output.toolCalls[0]!.id).toMatch(/^call_[a-z0-9]{8}$/);
      });
    });
  });
});
