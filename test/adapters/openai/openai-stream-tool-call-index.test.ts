// Streamed tool-call deltas whose `index` says which call they are: the reader's id bookkeeping
// (for vLLM/SGLang, which number every call 0) must not override an index that names a new call.
import { describe, expect, it } from "vitest";
import { OpenAIChatModel } from "../../../src/adapters/openai/index.js";
import { useLoopbackServer } from "../../support/loopback-server.js";
import { answerWithStream, streamChunk } from "../../support/openai-wire.js";

const user = [{ role: "user" as const, content: "Weather in Paris and Rome?" }];
const cityTool = (name: string) => ({
  name,
  inputSchema: { type: "object", properties: { city: { type: "string" } }, required: ["city"] },
});

const server = useLoopbackServer();

describe("OpenAIChatModel streamed tool calls with an index each", () => {
  const chunk = streamChunk;
  const answer = (payloads: string[]) => answerWithStream(server, payloads);
  const model = () =>
    new OpenAIChatModel("some-model", {
      baseURL: `${server.url}/v1`,
      apiKey: "sk-test",
      allowParallelToolCalls: true,
      retry: { maxRetries: 0 },
      maxRepairAttempts: 0,
    });

  it("should keep two calls with distinct indexes apart when the server gives both the same id", async () => {
    answer([
      chunk({
        role: "assistant",
        tool_calls: [
          { index: 0, id: "call_0", type: "function", function: { name: "weather", arguments: '{"city":' } },
        ],
      }),
      chunk({ tool_calls: [{ index: 0, function: { arguments: '"Paris"}' } }] }),
      chunk({
        tool_calls: [
          { index: 1, id: "call_0", type: "function", function: { name: "weather", arguments: '{"city":' } },
        ],
      }),
      chunk({ tool_calls: [{ index: 1, function: { arguments: '"Rome"}' } }] }),
      chunk({}, "tool_calls"),
    ]);
    const output = await model()
      .createStream({ messages: user, tools: [cityTool("weather")] })
      .final();
    expect(output.toolCalls.map(({ name, args }) => ({ name, args }))).toEqual([
      { name: "weather", args: { city: "Paris" } },
      { name: "weather", args: { city: "Rome" } },
    ]);
  });

  it("should keep one call whole when its later fragments at the same index carry another id and no name", async () => {
    answer([
      chunk({
        role: "assistant",
        tool_calls: [
          { index: 0, id: "call-1", type: "function", function: { name: "weather", arguments: '{"city":' } },
        ],
      }),
      chunk({ tool_calls: [{ index: 0, id: "call-2", type: "function", function: { arguments: '"Paris"}' } }] }),
      chunk({}, "tool_calls"),
    ]);
    const output = await model()
      .createStream({ messages: user, tools: [cityTool("weather")] })
      .final();
    expect(output.toolCalls.map(({ name, args }) => ({ name, args }))).toEqual([
      { name: "weather", args: { city: "Paris" } },
    ]);
  });
});
