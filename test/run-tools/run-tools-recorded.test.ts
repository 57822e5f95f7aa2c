// One two-step run per adapter on recorded provider traffic: a tool call, the tool executed, then
// the answer. Each adapter runs through its real SDK against a loopback server replaying
// ../shared/fixtures; runTools replays the non-streamed recordings, streamTools the streamed ones.
import { describe, expect, it } from "vitest";
import { AzureOpenAIChatModel } from "../../src/adapters/azure-openai/index.js";
import { OpenAIChatModel } from "../../src/adapters/openai/index.js";
import type { Message, RunPart, ToolDefinition } from "../../src/index.js";
import { runTools, streamTools } from "../../src/index.js";
import { createOllamaModel, replyNDJSON, replyWith } from "../adapters/ollama/ollama-harness.js";
import { recordedRequestBody, replayInteraction, useBedrockLoopback } from "../support/bedrock-loopback.js";
import type { Http2Handler } from "../support/loopback-http2-server.js";
import type { Handler } from "../support/loopback-server.js";
import { sendJSON, useLoopbackServer } from "../support/loopback-server.js";
import { ssePayloads } from "../support/openai-wire.js";
import {
  hasSharedFixtures,
  missingFixturesMessage,
  readCassette,
  readFixture,
  readJSONFixture,
} from "../support/shared-fixtures.js";

const ask = (content: string): Message[] => [{ role: "user", content }];

/** A handler answering the n-th request with the n-th reply. */
function inTurn<H extends (...args: any[]) => unknown>(replies: H[]): H {
  let next = 0;
  return ((...args: unknown[]) => {
    const reply = replies[next++];
    if (!reply) throw new Error(`request ${next} was not expected: the recording has ${replies.length}`);
    return reply(...args);
  }) as H;
}

const json =
  (body: unknown): Handler =>
  (_request, response) =>
    sendJSON(response, 200, body);
const sse =
  (bytes: string): Handler =>
  (_request, response) => {
    response.writeHead(200, { "content-type": "text/event-stream" });
    response.end(bytes);
  };

/** The text a recorded OpenAI-style stream carries in its content deltas. */
function streamedText(payloads: string[]): string {
  return payloads
    .filter((payload) => payload.trim().startsWith("{"))
    .map((payload) => JSON.parse(payload).choices?.[0]?.delta?.content ?? "")
    .join("");
}

const sseData = (bytes: string) =>
  bytes
    .split("\n")
    .filter((line) => line.startsWith("data: "))
    .map((line) => line.slice(6));

/** A tool that records the arguments it was called with and answers `result`. */
function recordingTool(definition: ToolDefinition, result: string) {
  const calls: Record<string, unknown>[] = [];
  const tool = {
    ...definition,
    execute: (args: Record<string, unknown>) => {
      calls.push(args);
      return result;
    },
  };
  return { tool, calls };
}

const textOf = (parts: RunPart[]) => parts.map((part) => (part.type === "text-delta" ? part.text : "")).join("");

describe.skipIf(!hasSharedFixtures)(
  hasSharedFixtures ? "runTools on recorded traffic" : `runTools on recorded traffic: ${missingFixturesMessage}`,
  () => {
    const server = useLoopbackServer();
    const bedrock = useBedrockLoopback();
    const openAI = (options: object = {}) =>
      new OpenAIChatModel("gpt-4o-mini", {
        baseURL: `${server.url}/v1`,
        apiKey: "sk-test",
        retry: { maxRetries: 0 },
        ...options,
      });
    const azure = (options: object = {}) =>
      new AzureOpenAIChatModel("gpt-4o", {
        endpoint: server.url,
        apiKey: "azure-test",
        apiVersion: "2024-12-01-preview",
        retry: { maxRetries: 0 },
        ...options,
      });

    describe("OpenAIChatModel", () => {
      const capital = recordingTool(
        {
          name: "get_capital",
          description: "Get the capital of a country.",
          inputSchema: { type: "object", properties: { country: { type: "string" } }, required: ["country"] },
        },
        "London",
      );

      it("should run a recorded tool call, send the result with its call id, and end on the recorded answer", async () => {
        const answer = readJSONFixture<any>("openai/chat-nonstream-text.json");
        server.handle(inTurn([json(readJSONFixture("openai/chat-nonstream-one-tool-call.json")), json(answer)]));
        const run = await runTools({
          model: openAI(),
          messages: ask("What is the capital of England?"),
          tools: [capital.tool],
        });

        expect(capital.calls).toEqual([{ country: "England" }]);
        const sent = server.requests[1]!.json.messages;
        expect(sent.slice(1)).toEqual([
          {
            role: "assistant",
            content: null,
            tool_calls: [
              {
                id: "call_SkEQ3ZGSJC8m6AvaIGNuuKdm",
                type: "function",
                function: { name: "get_capital", arguments: '{"country":"England"}' },
              },
            ],
          },
          { role: "tool", tool_call_id: "call_SkEQ3ZGSJC8m6AvaIGNuuKdm", content: "London" },
        ]);
        expect(run.text).toBe(answer.choices[0].message.content);
        expect(run.usage.totalTokens).toBe(120 + answer.usage.total_tokens);
        expect(run.steps.map((step) => step.output.finishReason)).toEqual(["tool-calls", "stop"]);
      });

      it("should stream a recorded split tool call and the recorded answer", async () => {
        const weather = recordingTool(
          {
            name: "get_weather",
            inputSchema: { type: "object", properties: { city: { type: "string" } }, required: ["city"] },
          },
          "24°C, sunny",
        );
        const toolCall = readFixture("openai/chat-stream-tool-call-args-split-across-chunks.sse");
        const text = readFixture("openai/chat-stream-text.sse");
        server.handle(inTurn([sse(toolCall), sse(text)]));
        const stream = streamTools({
          model: openAI(),
          messages: ask("Weather in Mexico City?"),
          tools: [weather.tool],
        });
        const parts: RunPart[] = [];
        for await (const part of stream) parts.push(part);
        const run = await stream.final();

        expect(weather.calls).toEqual([{ city: "Mexico City" }]);
        expect(server.requests[1]!.json.messages.at(-1)).toEqual({
          role: "tool",
          tool_call_id: "call_LwxJUB9KppVyogRRLQsamRJv",
          content: "24°C, sunny",
        });
        expect(run.text).toBe(streamedText(sseData(text)));
        expect(textOf(parts)).toBe(run.text);
        expect(parts.filter((part) => part.type === "tool-result")).toHaveLength(1);
      });
    });

    describe("AzureOpenAIChatModel", () => {
      const randString = () =>
        recordingTool(
          {
            name: "get_rand_string",
            inputSchema: { type: "object", properties: { slat: { type: "string" } }, required: ["slat"] },
          },
          "x7Qp",
        );

      it("should run a recorded tool call on the deployment's URL and end on the recorded answer", async () => {
        const tool = randString();
        const answer = readJSONFixture<any>("extra/azure-openai/chat-nonstream-text.odin.json");
        server.handle(
          inTurn([json(readJSONFixture("extra/azure-openai/chat-nonstream-tool-call.odin.json")), json(answer)]),
        );
        const run = await runTools({ model: azure(), messages: ask("A random string, please."), tools: [tool.tool] });

        expect(tool.calls).toEqual([{ slat: "hello" }]);
        for (const request of server.requests)
          expect(request.url).toMatch(/^\/openai\/deployments\/gpt-4o\/chat\/completions/);
        expect(server.requests[1]!.json.messages.at(-1)).toEqual({
          role: "tool",
          tool_call_id: "call_cQL3yg4IQrXpB15naaHp6nY5",
          content: "x7Qp",
        });
        expect(run.text).toBe(answer.choices[0].message.content);
      });

      it("should stream two recorded parallel calls, answer both in call order, then the recorded answer", async () => {
        const tool = randString();
        const calls = readFixture("extra/azure-openai/chat-stream-two-parallel-tool-calls.odin.chunks.ndjson")
          .trim()
          .split("\n");
        const text = readFixture("extra/azure-openai/chat-stream-text.odin.chunks.ndjson").trim().split("\n");
        server.handle(inTurn([sse(ssePayloads(calls)), sse(ssePayloads(text))]));
        const run = await streamTools({
          model: azure({ allowParallelToolCalls: true }),
          messages: ask("Two random strings, please."),
          tools: [tool.tool],
        }).final();

        expect(tool.calls).toEqual([{ slat: "hello" }, { slat: "hi" }]);
        const sent = server.requests[1]!.json.messages;
        expect(sent.slice(-2).map((message: any) => message.tool_call_id)).toEqual([
          "call_sJFuv3SdQtxoaCccGBPiPY53",
          "call_RleVQfBwjkh4jez8JowsMSE1",
        ]);
        expect(run.text).toBe(streamedText(text));
        expect(run.text).not.toBe("");
      });
    });

    describe("OllamaChatModel", () => {
      const weather = () =>
        recordingTool(
          {
            name: "get_weather",
            inputSchema: { type: "object", properties: { city: { type: "string" } }, required: ["city"] },
          },
          "11°C",
        );
      const answer = () => readJSONFixture<any>("ollama/api-chat-nonstream-text-after-tool-result.docs.json");

      it("should run the documented tool call, send the result back, and end on the documented answer", async () => {
        const tool = weather();
        server.handle(
          inTurn([json(readJSONFixture("ollama/api-chat-nonstream-one-tool-call.docs.json")), json(answer())]),
        );
        const run = await runTools({
          model: createOllamaModel(server.url),
          messages: ask("Weather in Tokyo?"),
          tools: [tool.tool],
        });

        expect(tool.calls).toEqual([{ city: "Tokyo" }]);
        const sent = server.requests[1]!.json.messages;
        expect(sent[1]).toMatchObject({
          role: "assistant",
          tool_calls: [{ function: { name: "get_weather", arguments: { city: "Tokyo" } } }],
        });
        expect(sent[2]).toMatchObject({ role: "tool", content: "11°C" });
        expect(run.text).toBe(answer().message.content);
        expect(run.usage.inputTokens).toBe(169 + 94);
      });

      it("should stream the documented tool call and answer", async () => {
        const tool = weather();
        server.handle(
          inTurn([replyNDJSON(readFixture("ollama/api-chat-stream-tool-call.docs.ndjson")), replyWith(answer())]),
        );
        const run = await streamTools({
          model: createOllamaModel(server.url),
          messages: ask("Weather in Tokyo?"),
          tools: [tool.tool],
        }).final();

        expect(tool.calls).toEqual([{ city: "Tokyo" }]);
        expect(server.requests[1]!.json.messages[2]).toMatchObject({ role: "tool", content: "11°C" });
        expect(run.text).toBe(answer().message.content);
      });
    });

    describe("BedrockChatModel", () => {
      const cassette = (name: string) => readCassette(`bedrock/${name}.cassette.yaml`)[0]!;
      /** The recorded request's tools, each answering `result`. */
      const recordedTools = (name: string, result: string) => {
        const calls: Record<string, unknown>[] = [];
        const tools = recordedRequestBody(cassette(name)).toolConfig.tools.map(({ toolSpec }: any) => ({
          name: toolSpec.name,
          description: toolSpec.description,
          inputSchema: toolSpec.inputSchema.json,
          execute: (args: Record<string, unknown>) => {
            calls.push({ [toolSpec.name]: args });
            return result;
          },
        }));
        return { tools, calls };
      };

      it("should run a recorded toolUse, send the toolResult with its id, and end on the recorded answer", async () => {
        const { tools, calls } = recordedTools("converse-nonstream-one-tool-use", "8°C");
        bedrock.server.handle(
          inTurn<Http2Handler>([
            replayInteraction(cassette("converse-nonstream-one-tool-use")),
            replayInteraction(cassette("converse-nonstream-text")),
          ]),
        );
        const run = await runTools({
          model: bedrock.model(),
          messages: ask("Temperature in London on 2022-01-01?"),
          tools,
        });

        expect(calls).toEqual([{ temperature: { city: "London", date: "2022-01-01" } }]);
        const sent = bedrock.server.requests[1]!.json.messages;
        expect(sent[1].content).toContainEqual({
          toolUse: {
            toolUseId: "tooluse_Mj06ft-ITJik1Otgpkc1uA",
            name: "temperature",
            input: { city: "London", date: "2022-01-01" },
          },
        });
        expect(sent[2]).toEqual({
          role: "user",
          content: [{ toolResult: { toolUseId: "tooluse_Mj06ft-ITJik1Otgpkc1uA", content: [{ text: "8°C" }] } }],
        });
        expect(run.text).toBe(
          readJSONFixture<any>("bedrock/converse-nonstream-text.json").output.message.content[0].text,
        );
      });

      it("should stream a recorded text-then-toolUse turn and the recorded answer", async () => {
        const { tools, calls } = recordedTools("converse-stream-text-then-tool-use", "18°C");
        bedrock.server.handle(
          inTurn<Http2Handler>([
            replayInteraction(cassette("converse-stream-text-then-tool-use")),
            replayInteraction(cassette("converse-stream-text")),
          ]),
        );
        const stream = streamTools({
          model: bedrock.model(),
          messages: ask("Temperature in the capital of France?"),
          tools,
        });
        const parts: RunPart[] = [];
        for await (const part of stream) parts.push(part);
        const run = await stream.final();

        expect(calls).toEqual([{ get_temperature: { city: "Paris" } }]);
        const sent = bedrock.server.requests[1]!.json.messages;
        expect(sent[2].content[0].toolResult).toEqual({
          toolUseId: "tooluse_lAG_zP8QRHmSYOwZzzaCqA",
          content: [{ text: "18°C" }],
        });
        // The first turn's text is kept with its toolUse in the assistant message sent back.
        expect(sent[1].content[0].text).toBe(
          textOf(
            parts.slice(
              0,
              parts.findIndex((part) => part.type === "step-finish"),
            ),
          ),
        );
        expect(run.text).not.toBe("");
        expect(run.steps).toHaveLength(2);
      });
    });
  },
);
