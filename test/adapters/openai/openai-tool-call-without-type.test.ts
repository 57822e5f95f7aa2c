import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { OpenAIChatModel } from "../../../src/adapters/openai/index.js";
import type { LoopbackServer } from "../../support/loopback-server.js";
import { sendJSON, startLoopbackServer } from "../../support/loopback-server.js";

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
              message: { role: "assistant", content: "", tool_calls: [{ id: "D681PevKs", function: { name: "weather", arguments: '{"city":"Paris"}' }, index: 0 }] },
              finish_reason: "tool_calls",
            },
          ],
          usage: { prompt_tokens: 60, completion_tokens: 12, total_tokens: 72 },
        }),
      );
      const model = new OpenAIChatModel("mistral-large-latest", { baseURL: `${server.url}/v1`, apiKey, retry: { maxRetries: 0 }, maxRepairAttempts: 0 });
      const output = await model.create({ messages: user, tools: [cityTool("weather")] });
      expect(output.toolCalls).toEqual([{ type: "tool-call", id: "D681PevKs", name: "weather", args: { city: "Paris" } }]);
      expect(output.finishReason).toBe("tool-calls");
    });
  });
});
