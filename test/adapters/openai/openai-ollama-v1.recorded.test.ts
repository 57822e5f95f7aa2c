// Ollama's OpenAI-compatible endpoint (/v1) with a reasoning model, replayed from its recorded traffic.
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { OpenAIChatModel } from "../../../src/adapters/openai/index.js";
import type { ChatModelOutput } from "../../../src/index.js";
import type { LoopbackServer } from "../../support/loopback-server.js";
import { sendJSON, startLoopbackServer } from "../../support/loopback-server.js";
import { ssePayloads } from "../../support/openai-wire.js";
import { hasSharedFixtures, missingFixturesMessage, readJSONFixture } from "../../support/shared-fixtures.js";

const toolCallWithReasoning = "ollama/v1-chat-completions-tool-call-with-reasoning.json";
const finalResult = {
  name: "final_result",
  inputSchema: {
    type: "object",
    properties: { city: { type: "string" }, country: { type: "string" } },
    required: ["city", "country"],
  },
};
const user = [{ role: "user" as const, content: "What is the capital of France?" }];

let server: LoopbackServer;
beforeEach(async () => {
  server = await startLoopbackServer();
});
afterEach(async () => {
  await server.close();
});

/**
 * The recorded reply, as create gets it; for createStream, as Ollama streams the same reply
 * (ollama/ollama openai/openai.go `ToChunk`: the thinking in `delta.reasoning`, the whole call in one delta).
 */
function answerWithRecordedToolCall(): { reasoning: string } {
  const completion = readJSONFixture<{ choices: [{ message: { reasoning: string; tool_calls: object[] } }] }>(
    toolCallWithReasoning,
  );
  const { message } = completion.choices[0];
  const chunk = (delta: object, finish: string | null) =>
    JSON.stringify({
      id: "chatcmpl-273",
      object: "chat.completion.chunk",
      created: 1,
      model: "gpt-oss:20b",
      system_fingerprint: "fp_ollama",
      choices: [{ index: 0, delta, finish_reason: finish }],
    });
  server.handle((request, response) => {
    if (!(request.json as { stream?: boolean }).stream) return sendJSON(response, 200, completion);
    response.writeHead(200, { "content-type": "text/event-stream" });
    response.end(
      ssePayloads([
        chunk({ role: "assistant", content: "", reasoning: message.reasoning }, null),
        chunk({ role: "assistant", content: "", tool_calls: message.tool_calls }, null),
        chunk({ role: "assistant", content: "" }, "tool_calls"),
      ]),
    );
  });
  return { reasoning: message.reasoning };
}

describe.skipIf(!hasSharedFixtures)(
  hasSharedFixtures ? "OpenAIChatModel on Ollama /v1" : `OpenAIChatModel on Ollama /v1: ${missingFixturesMessage}`,
  () => {
    const runs = [
      { mode: "create", run: (model: OpenAIChatModel) => model.create({ messages: user, tools: [finalResult] }) },
      {
        mode: "createStream",
        run: (model: OpenAIChatModel) => model.createStream({ messages: user, tools: [finalResult] }).final(),
      },
    ] as const satisfies readonly { mode: string; run: (model: OpenAIChatModel) => Promise<ChatModelOutput> }[];

    describe.each(runs)("$mode", ({ run }) => {
      // Ollama reads an assistant message's thinking from `reasoning` only (openai/openai.go `Message`,
      // `FromChatRequest`: Thinking: msg.Reasoning); a `reasoning_content` is dropped, and gpt-oss loses
      // the reasoning behind its own tool call on the next turn.
      it("should send a tool-call turn's reasoning back in the field Ollama reads", async () => {
        const { reasoning } = answerWithRecordedToolCall();
        const model = new OpenAIChatModel("gpt-oss:20b", {
          baseURL: `${server.url}/v1`,
          apiKey: "ollama",
          retry: { maxRetries: 0 },
        });
        const output = await run(model);
        expect(output.reasoning).toBe(reasoning);
        expect(output.toolCalls).toEqual([
          { type: "tool-call", id: "call_o2vnpxrw", name: "final_result", args: { city: "Paris", country: "France" } },
        ]);

        const toolResult = {
          role: "tool" as const,
          toolCallId: "call_o2vnpxrw",
          toolName: "final_result",
          content: "ok",
        };
        await model.create({ messages: [...user, output.message, toolResult], tools: [finalResult] });
        const sent = server.requests[1]!.json.messages[1];
        expect(sent.reasoning).toBe(reasoning);
        expect(sent).not.toHaveProperty("reasoning_content");
      });
    });
  },
);
