// Multi-turn agent loop defects found in review: each test runs turn 1 (a tool call) and turn 2
// through the real SDK against a loopback server and reads the request turn 2 sent.
import { describe, expect, it } from "vitest";
import type { Message, ToolDefinition } from "../../src/index.js";
import { OpenAIChatModel } from "../../src/adapters/openai/index.js";
import { AzureOpenAIChatModel } from "../../src/adapters/azure-openai/index.js";
import { sendJSON, useLoopbackServer } from "../support/loopback-server.js";
import { replyFor, replyOf, useBedrockLoopback } from "../support/bedrock-loopback.js";
import { call, callModes } from "../support/run-modes.js";

const weather: ToolDefinition = {
  name: "get_weather",
  inputSchema: { type: "object", properties: { city: { type: "string" } }, required: ["city"] },
};
const ask: Message[] = [{ role: "user", content: "Weather in Paris?" }];

const server = useLoopbackServer();
const bedrock = useBedrockLoopback();

/** Answers chat.completions with `message` (JSON or SSE, as the request asked). */
function answerOpenAI(message: Record<string, any>, finish: string) {
  server.handle((request, response) => {
    if (!request.json.stream) {
      return sendJSON(response, 200, {
        id: "chatcmpl-1",
        object: "chat.completion",
        created: 1,
        model: "m",
        choices: [{ index: 0, message: { role: "assistant", ...message }, finish_reason: finish }],
        usage: { prompt_tokens: 5, completion_tokens: 5, total_tokens: 10 },
      });
    }
    const chunk = (delta: object, finishReason: string | null) =>
      `data: ${JSON.stringify({ id: "chatcmpl-1", object: "chat.completion.chunk", created: 1, model: "m", choices: [{ index: 0, delta, finish_reason: finishReason }] })}\n\n`;
    let body = chunk({ role: "assistant", content: "" }, null);
    if (message.reasoning_content) body += chunk({ reasoning_content: message.reasoning_content }, null);
    if (message.content) body += chunk({ content: message.content }, null);
    (message.tool_calls ?? []).forEach(
      (toolCall: object, index: number) => (body += chunk({ tool_calls: [{ index, ...toolCall }] }, null)),
    );
    response.writeHead(200, { "content-type": "text/event-stream" });
    response.end(body + chunk({}, finish) + "data: [DONE]\n\n");
  });
}

describe.each(callModes)("agent loop through %s", (mode) => {
  // DeepSeek's thinking mode (api-docs.deepseek.com/guides/thinking_mode, "Tool Calls"): for a turn
  // that made tool calls, `reasoning_content` must be passed back in every later request, or the API
  // answers 400 "The `reasoning_content` in the thinking mode must be passed back to the API."
  // Kimi K2 thinking answers 400 "reasoning_content is missing in assistant tool call message".
  it("should pass reasoning_content back on an OpenAI-compatible server's tool-call turn", async () => {
    const model = new OpenAIChatModel("deepseek-v4-flash", {
      baseURL: `${server.url}/v1`,
      apiKey: "sk-test",
      retry: { maxRetries: 0 },
    });
    answerOpenAI(
      {
        content: "",
        reasoning_content: "I need the weather tool.",
        tool_calls: [
          { id: "call_00_abc", type: "function", function: { name: "get_weather", arguments: '{"city":"Paris"}' } },
        ],
      },
      "tool_calls",
    );
    const first = await call(model, { messages: ask, tools: [weather] }, mode);
    expect(first.reasoning).toBe("I need the weather tool.");

    answerOpenAI({ content: "18°C in Paris." }, "stop");
    const messages: Message[] = [
      ...ask,
      first.message,
      { role: "tool", toolCallId: first.toolCalls[0]!.id, toolName: "get_weather", content: "18°C" },
    ];
    await call(model, { messages, tools: [weather] }, mode);
    const assistant = server.requests[1]!.json.messages[1];
    expect(assistant).toMatchObject({
      role: "assistant",
      reasoning_content: "I need the weather tool.",
      tool_calls: [{ id: "call_00_abc" }],
    });
  });

  it("should send no reasoning_content to Azure OpenAI, nor when the option turns it off", async () => {
    const history: Message[] = [
      ...ask,
      {
        role: "assistant",
        content: [
          { type: "reasoning", text: "Look it up." },
          { type: "tool-call", id: "call_1", name: "get_weather", args: { city: "Paris" } },
        ],
      },
      { role: "tool", toolCallId: "call_1", toolName: "get_weather", content: "18°C" },
    ];
    answerOpenAI({ content: "18°C in Paris." }, "stop");
    const azure = new AzureOpenAIChatModel("gpt-4o", {
      endpoint: server.url,
      apiKey: "k",
      apiVersion: "2024-12-01-preview",
      retry: { maxRetries: 0 },
    });
    const gateway = new OpenAIChatModel("m", {
      baseURL: `${server.url}/v1`,
      apiKey: "k",
      sendReasoningContent: false,
      retry: { maxRetries: 0 },
    });
    await call(azure, { messages: history, tools: [weather] }, mode);
    await call(gateway, { messages: history, tools: [weather] }, mode);
    for (const request of server.requests) expect(request.json.messages[1]).not.toHaveProperty("reasoning_content");
  });

  // Converse's ToolUseBlock.toolUseId / ToolResultBlock.toolUseId: length 1–64, pattern
  // ^[a-zA-Z0-9_-]+$ (Bedrock API reference). A conversation begun on an OpenAI-compatible server
  // whose ids do not fit (Kimi K2's `functions.get_weather:0`) and continued on Bedrock must still
  // pair each result with its call, with ids Bedrock takes.
  it("should send Bedrock only toolUseIds it accepts, the call and its result still paired", async () => {
    const foreignIds = ["functions.get_weather:0", `call_${"x".repeat(70)}`];
    const history: Message[] = [
      ...ask,
      {
        role: "assistant",
        content: foreignIds.map((id, index) => ({
          type: "tool-call" as const,
          id,
          name: "get_weather",
          args: { city: `City ${index}` },
        })),
      },
      ...foreignIds.map((id, index): Message => ({
        role: "tool",
        toolCallId: id,
        toolName: "get_weather",
        content: `${index}°C`,
      })),
    ];
    bedrock.server.handle(
      replyFor(
        replyOf({
          output: { message: { role: "assistant", content: [{ text: "Done." }] } },
          stopReason: "end_turn",
          usage: { inputTokens: 1, outputTokens: 1, totalTokens: 2 },
        }),
        mode,
      ),
    );
    await call(
      bedrock.model("us.anthropic.claude-3-7-sonnet-20250219-v1:0", { retry: { maxRetries: 0 } }),
      { messages: history, tools: [weather] },
      mode,
    );

    const sent = bedrock.server.requests[0]!.json.messages;
    const useIds: string[] = sent[1].content.map((block: any) => block.toolUse.toolUseId);
    const resultIds: string[] = sent[2].content.map((block: any) => block.toolResult.toolUseId);
    for (const id of useIds) expect(id).toMatch(/^[a-zA-Z0-9_-]{1,64}$/);
    expect(new Set(useIds).size).toBe(2);
    expect(resultIds).toEqual(useIds);
  });
});
