import { describe, expect, it } from "vitest";
import { createChatModel } from "../../../src/index.js";
import type { Message, ToolDefinition } from "../../../src/index.js";
import { useLoopbackServer } from "../../support/loopback-server.js";
import { jsonResponse, openAITextReply, sseResponse, ssePayloads } from "../../support/openai-wire.js";
import { hasSharedFixtures, missingFixturesMessage, readFixture } from "../../support/shared-fixtures.js";

const server = useLoopbackServer();
const clock: ToolDefinition = { name: "get_current_time", inputSchema: { type: "object", properties: {} } };
const ask: Message[] = [{ role: "user", content: "What time is it?" }];
const gemini = () => createChatModel("gemini:gemini-3-flash", { baseURL: server.url, apiKey: "AIza-test" });
const signature = "Es8FCswFAXLI2nxFGW9o+sig/A==";

function answer(...replies: { status?: number; headers?: Record<string, string>; body: unknown }[]): void {
  let next = 0;
  server.handle((_request, response) => {
    const reply = replies[Math.min(next++, replies.length - 1)]!;
    response.writeHead(reply.status ?? 200, reply.headers);
    response.end(reply.body as string);
  });
}

const callReply = (extra: object) => ({
  id: "c1",
  object: "chat.completion",
  created: 1,
  model: "gemini-3-flash",
  choices: [
    {
      index: 0,
      finish_reason: "tool_calls",
      message: {
        role: "assistant",
        content: null,
        tool_calls: [
          { id: "call_a", type: "function", function: { name: "get_current_time", arguments: "{}" }, ...extra },
        ],
      },
    },
  ],
});

describe("the gemini: OpenAI-compatible preset", () => {
  it("should keep extra_content.google.thought_signature on the tool call and send it back unchanged", async () => {
    answer(
      jsonResponse(callReply({ extra_content: { google: { thought_signature: signature } } })),
      openAITextReply("Noon.").create!,
    );
    const model = gemini();
    const output = await model.create({ messages: ask, tools: [clock] });
    expect(output.toolCalls[0]!.signature).toBe(signature);
    await model.create({
      messages: [
        ...ask,
        output.message,
        { role: "tool", toolCallId: "call_a", toolName: "get_current_time", content: "Noon" },
      ],
      tools: [clock],
    });
    const sent = (server.requests[1]!.json as any).messages[1].tool_calls[0];
    expect(sent.extra_content).toEqual({ google: { thought_signature: signature } });
  });

  it("should keep a streamed call's signature", async () => {
    const chunk = (delta: object, finish: string | null = null) =>
      JSON.stringify({
        id: "c",
        object: "chat.completion.chunk",
        created: 1,
        model: "m",
        choices: [{ index: 0, delta, finish_reason: finish }],
      });
    answer(
      sseResponse(
        ssePayloads([
          chunk({
            role: "assistant",
            tool_calls: [
              {
                index: 0,
                id: "call_a",
                type: "function",
                function: { name: "get_current_time", arguments: "{}" },
                extra_content: { google: { thought_signature: signature } },
              },
            ],
          }),
          chunk({}, "tool_calls"),
        ]),
      ),
    );
    const output = await gemini()
      .createStream({ messages: ask, tools: [clock] })
      .final();
    expect(output.toolCalls[0]!.signature).toBe(signature);
  });
});

describe.skipIf(!hasSharedFixtures)(hasSharedFixtures ? "recorded gemini: traffic" : missingFixturesMessage, () => {
  if (!hasSharedFixtures) return;
  it("should keep a message-level signature (gemini-2.5 on the compatible endpoint) on the call it came with", async () => {
    const recorded = JSON.parse(readFixture("extra/malformed/gemini-openai-compat-tool-call-empty-id.json"));
    answer(jsonResponse(recorded));
    const output = await gemini().create({ messages: ask, tools: [clock] });
    expect(output.toolCalls[0]!.signature).toBe(recorded.choices[0].message.extra_content.google.thought_signature);
  });
});
