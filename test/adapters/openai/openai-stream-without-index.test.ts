import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { OpenAIChatModel } from "../../../src/adapters/openai/index.js";
import type { LoopbackServer } from "../../support/loopback-server.js";
import { startLoopbackServer } from "../../support/loopback-server.js";
import { ssePayloads } from "../../support/openai-wire.js";

const apiKey = "sk-test-SENTINEL-123";
const user = [{ role: "user" as const, content: "Weather in Paris and Rome?" }];
const cityTool = (name: string) => ({ name, inputSchema: { type: "object", properties: { city: { type: "string" } }, required: ["city"] } });

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
    const chunk = (delta: object, finish: string | null = null) =>
      JSON.stringify({ id: "x", object: "chat.completion.chunk", created: 1, model: "gemini-2.5-flash", choices: [{ index: 0, delta, finish_reason: finish }] });
    const answer = (payloads: string[]) =>
      server.handle((_request, response) => {
        response.writeHead(200, { "content-type": "text/event-stream" });
        response.end(ssePayloads(payloads));
      });
    const model = () =>
      new OpenAIChatModel("gemini-2.5-flash", { baseURL: `${server.url}/v1`, apiKey, allowParallelToolCalls: true, retry: { maxRetries: 0 }, maxRepairAttempts: 0 });

    it("should keep two calls sent in separate chunks apart", async () => {
      answer([
        chunk({ role: "assistant", tool_calls: [{ id: "function-call-1", type: "function", function: { name: "weather", arguments: '{"city":"Paris"}' } }] }),
        chunk({ tool_calls: [{ id: "function-call-2", type: "function", function: { name: "time", arguments: '{"city":"Rome"}' } }] }),
        chunk({}, "stop"),
      ]);
      const output = await model().createStream({ messages: user, tools: [cityTool("weather"), cityTool("time")] }).final();
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
      const output = await model().createStream({ messages: user, tools: [cityTool("weather")] }).final();
      expect(output.toolCalls.map(({ id, args }) => ({ id, args }))).toEqual([
        { id: "function-call-1", args: { city: "Paris" } },
        { id: "function-call-2", args: { city: "Rome" } },
      ]);
    });

    it("should join index-less argument fragments onto the call they continue", async () => {
      answer([
        chunk({ role: "assistant", tool_calls: [{ id: "function-call-1", type: "function", function: { name: "weather", arguments: '{"city":' } }] }),
        chunk({ tool_calls: [{ function: { arguments: '"Paris"}' } }] }),
        chunk({}, "stop"),
      ]);
      const output = await model().createStream({ messages: user, tools: [cityTool("weather")] }).final();
      expect(output.toolCalls).toEqual([{ type: "tool-call", id: "function-call-1", name: "weather", args: { city: "Paris" } }]);
    });
  });
});
