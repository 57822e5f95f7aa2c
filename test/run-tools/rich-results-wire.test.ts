// Rich tool results on the wire: each adapter, through its real SDK against a loopback server
// replaying recorded traffic, sends a tool's text and image the way its provider takes them.
import { describe, expect, it } from "vitest";
import { AnthropicChatModel } from "../../src/adapters/anthropic/index.js";
import { OpenAIChatModel, OpenAIResponsesChatModel } from "../../src/adapters/openai/index.js";
import type { ChatModel, Message, WarningEvent } from "../../src/index.js";
import { runTools } from "../../src/index.js";
import { createOllamaModel } from "../adapters/ollama/ollama-harness.js";
import { replayInteraction, useBedrockLoopback } from "../support/bedrock-loopback.js";
import type { Http2Handler } from "../support/loopback-http2-server.js";
import type { Handler } from "../support/loopback-server.js";
import { sendJSON, useLoopbackServer } from "../support/loopback-server.js";
import {
  hasSharedFixtures,
  missingFixturesMessage,
  readCassette,
  readJSONFixture,
} from "../support/shared-fixtures.js";

const png = "iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8BQDwAEhQGAhKmMIQAAAABJRU5ErkJggg==";
const ask = (content: string): Message[] => [{ role: "user", content }];

/** A tool named like the recorded call that answers with a caption and a chart. */
function chartTool(name: string) {
  let runs = 0;
  const tool = {
    name,
    inputSchema: { type: "object", properties: {}, additionalProperties: true },
    execute: () => {
      runs++;
      return {
        content: [
          { type: "text" as const, text: "Chart of the last hour" },
          { type: "image" as const, image: png, mediaType: "image/png" },
        ],
      };
    },
  };
  return { tool, runs: () => runs };
}

function inTurn<H extends (...args: any[]) => unknown>(replies: H[]): H {
  let next = 0;
  return ((...args: unknown[]) => {
    const reply = replies[next++];
    if (!reply) throw new Error(`request ${next} was not expected`);
    return reply(...args);
  }) as H;
}

const json =
  (body: unknown): Handler =>
  (_request, response) =>
    sendJSON(response, 200, body);

/** The model's tool-result-media warnings during a run. */
function warnings(model: ChatModel): WarningEvent[] {
  const seen: WarningEvent[] = [];
  model.emitter.on("warning", (event) => {
    if (event.code === "tool-result-media") seen.push(event);
  });
  return seen;
}

describe.skipIf(!hasSharedFixtures)(
  hasSharedFixtures ? "rich tool results on the wire" : `rich tool results on the wire: ${missingFixturesMessage}`,
  () => {
    const server = useLoopbackServer();
    const bedrock = useBedrockLoopback();

    it("AnthropicChatModel: should send the text and the image inside the tool_result block", async () => {
      const chart = chartTool("weather");
      server.handle(
        inTurn([
          json(readJSONFixture("anthropic/messages-nonstream-one-tool-use-weather.json")),
          json(readJSONFixture("anthropic/messages-nonstream-text.json")),
        ]),
      );
      const model = new AnthropicChatModel("claude-haiku-4-5", {
        baseURL: server.url,
        apiKey: "sk-ant-test",
        retry: { maxRetries: 0 },
      });
      const seen = warnings(model);
      await runTools({ model, messages: ask("Weather chart for San Francisco?"), tools: [chart.tool] });

      const sent = server.requests[1]!.json.messages;
      expect(sent[2]).toEqual({
        role: "user",
        content: [
          {
            type: "tool_result",
            tool_use_id: "toolu_01PQjhxo3eirCdKNvCJrKc8f",
            content: [
              { type: "text", text: "Chart of the last hour" },
              { type: "image", source: { type: "base64", media_type: "image/png", data: png } },
            ],
          },
        ],
      });
      expect(seen).toEqual([]);
      expect(chart.runs()).toBe(1);
    });

    it("OpenAIResponsesChatModel: should send the text and the image as the function_call_output", async () => {
      const chart = chartTool("get_capital");
      server.handle(
        inTurn([
          json(readJSONFixture("openai-responses/responses-nonstream-tool-call-round-trip.0.json")),
          json(readJSONFixture("openai-responses/responses-nonstream-tool-call-round-trip.1.json")),
        ]),
      );
      const model = new OpenAIResponsesChatModel("gpt-4o", {
        baseURL: `${server.url}/v1`,
        apiKey: "sk-test",
        retry: { maxRetries: 0 },
      });
      const seen = warnings(model);
      await runTools({ model, messages: ask("Capital of PotatoLand, as a map?"), tools: [chart.tool] });

      const output = server.requests[1]!.json.input.find((item: any) => item.type === "function_call_output");
      expect(output).toEqual({
        type: "function_call_output",
        call_id: "call_YfwRsW8sUxDKipwyhWTzOXCA",
        output: [
          { type: "input_text", text: "Chart of the last hour" },
          { type: "input_image", detail: "auto", image_url: `data:image/png;base64,${png}` },
        ],
      });
      expect(seen).toEqual([]);
    });

    it("BedrockChatModel: should send the text and the image inside the toolResult block", async () => {
      const chart = chartTool("temperature");
      const cassette = (name: string) => readCassette(`bedrock/${name}.cassette.yaml`)[0]!;
      bedrock.server.handle(
        inTurn<Http2Handler>([
          replayInteraction(cassette("converse-nonstream-one-tool-use")),
          replayInteraction(cassette("converse-nonstream-text")),
        ]),
      );
      const model = bedrock.model();
      const seen = warnings(model);
      await runTools({ model, messages: ask("Temperature chart for London?"), tools: [chart.tool] });

      const sent = bedrock.server.requests[1]!.json.messages;
      expect(sent[2]).toEqual({
        role: "user",
        content: [
          {
            toolResult: {
              toolUseId: "tooluse_Mj06ft-ITJik1Otgpkc1uA",
              content: [{ text: "Chart of the last hour" }, { image: { format: "png", source: { bytes: png } } }],
            },
          },
        ],
      });
      expect(seen).toEqual([]);
    });

    it("OpenAIChatModel: should send the text in the tool message and the image in a user message after it, with one warning", async () => {
      const chart = chartTool("get_capital");
      server.handle(
        inTurn([
          json(readJSONFixture("openai/chat-nonstream-one-tool-call.json")),
          json(readJSONFixture("openai/chat-nonstream-text.json")),
        ]),
      );
      const model = new OpenAIChatModel("gpt-4o-mini", {
        baseURL: `${server.url}/v1`,
        apiKey: "sk-test",
        retry: { maxRetries: 0 },
      });
      const seen = warnings(model);
      await runTools({ model, messages: ask("Capital of England, as a map?"), tools: [chart.tool] });

      const sent = server.requests[1]!.json.messages;
      expect(sent.slice(2)).toEqual([
        { role: "tool", tool_call_id: "call_SkEQ3ZGSJC8m6AvaIGNuuKdm", content: "Chart of the last hour" },
        {
          role: "user",
          content: [
            { type: "text", text: "[images and files returned by tool get_capital (call_SkEQ3ZGSJC8m6AvaIGNuuKdm)]" },
            { type: "image_url", image_url: { url: `data:image/png;base64,${png}` } },
          ],
        },
      ]);
      // One warning, for the call that carried the image (the first call had no tool result).
      expect(seen).toHaveLength(1);
      expect(seen[0]!.message).toMatch(/openai takes only text in a tool result/);
    });

    it("OllamaChatModel: should send the text in the tool message and the image in a user message after it, with one warning", async () => {
      const chart = chartTool("get_weather");
      server.handle(
        inTurn([
          json(readJSONFixture("ollama/api-chat-nonstream-one-tool-call.docs.json")),
          json(readJSONFixture("ollama/api-chat-nonstream-text-after-tool-result.docs.json")),
        ]),
      );
      const model = createOllamaModel(server.url);
      const seen = warnings(model);
      const run = await runTools({ model, messages: ask("Weather chart for Tokyo?"), tools: [chart.tool] });

      const sent = server.requests[1]!.json.messages;
      expect(sent.slice(2)).toEqual([
        { role: "tool", content: "Chart of the last hour", tool_name: "get_weather" },
        { role: "user", content: "[images returned by tool get_weather]", images: [png] },
      ]);
      expect(seen).toHaveLength(1);
      expect(run.status).toBe("done");
    });
  },
);
