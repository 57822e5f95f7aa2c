// Within one reply every tool call has its own id: a repeated (or missing) id is replaced, and
// meta.repairs says so — through create and createStream, from the scripted model and the real
// OpenAI and Anthropic SDKs.
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { AnthropicChatModel } from "../../../src/adapters/anthropic/index.js";
import { OpenAIChatModel } from "../../../src/adapters/openai/index.js";
import { defineTool } from "../../../src/index.js";
import type { ChatModelOutput } from "../../../src/index.js";
import { ScriptedChatModel, toolCallsStep } from "../../../src/testing/index.js";
import { anthropicSSE } from "../../support/anthropic-wire.js";
import { useLoopbackServer } from "../../support/loopback-server.js";
import { ssePayloads } from "../../support/openai-wire.js";
import { callModes, runCall, user } from "../../support/run-modes.js";

const lookup = defineTool({
  name: "lookup",
  inputSchema: { type: "object", properties: { q: { type: "string" } }, required: ["q"] },
});
const input = { messages: [user("look these up")], tools: [lookup], parallelToolCalls: true };

function expectUniqueIds(output: ChatModelOutput, sentIds: readonly (string | undefined)[]): void {
  const ids = output.toolCalls.map((call) => call.id);
  expect(new Set(ids).size).toBe(ids.length);
  for (const id of ids) expect(id).not.toBe("");
  // The first holder of an id keeps it; each later holder, and each call without one, is a repair.
  const seen = new Set<string>();
  let replaced = 0;
  sentIds.forEach((id, index) => {
    if (id === undefined || id === "" || seen.has(id)) replaced++;
    else {
      seen.add(id);
      expect(ids[index]).toBe(id);
    }
  });
  const repairs = output.meta.repairs.filter(
    (repair) => repair.kind === "duplicate-id" || repair.kind === "missing-id",
  );
  expect(repairs).toHaveLength(replaced);
}

describe.each(callModes)("tool-call ids within one reply (%s)", (mode) => {
  it("should give each call its own id whatever ids the provider repeats or leaves out", async () => {
    const ids = fc.array(fc.option(fc.constantFrom("call_dup00001", "call_b", "", "toolu_01"), { nil: undefined }), {
      minLength: 1,
      maxLength: 6,
    });
    await fc.assert(
      fc.asyncProperty(ids, async (sentIds) => {
        const calls = sentIds.map((id, index) => ({
          name: "lookup",
          args: { q: `q${index}` },
          ...(id === undefined ? {} : { id }),
        }));
        const model = new ScriptedChatModel([toolCallsStep(calls)]);
        const { output } = await runCall(model, input, mode);
        expect(output.toolCalls.map((call) => call.args.q)).toEqual(sentIds.map((_, index) => `q${index}`));
        expectUniqueIds(output, sentIds);
      }),
      { numRuns: 80 },
    );
  });

  it("should give the tool messages of the next turn distinct toolCallIds", async () => {
    const model = new ScriptedChatModel([
      toolCallsStep([
        { name: "lookup", args: { q: "a" }, id: "call_dup00001" },
        { name: "lookup", args: { q: "b" }, id: "call_dup00001" },
      ]),
    ]);
    const { output } = await runCall(model, input, mode);
    // The assistant message the caller sends back carries the same ids the tool messages answer.
    const content = output.message.content;
    const toolCallIds = (typeof content === "string" ? [] : content).flatMap((part) =>
      part.type === "tool-call" ? [part.id] : [],
    );
    expect(toolCallIds).toEqual(output.toolCalls.map((call) => call.id));
    expect(new Set(toolCallIds).size).toBe(2);
    expect(output.meta.repairs).toContainEqual(expect.objectContaining({ kind: "duplicate-id", toolName: "lookup" }));
  });
});

describe("duplicate ids from the real SDKs", () => {
  const server = useLoopbackServer();
  const args = (q: string) => JSON.stringify({ q });

  it.each(callModes)("should replace the repeated id of an OpenAI reply (%s)", async (mode) => {
    server.handle((request, response) => {
      const calls = ["a", "b"].map((q, index) => ({
        index,
        id: "call_dup00001",
        type: "function",
        function: { name: "lookup", arguments: args(q) },
      }));
      if (request.json.stream) {
        response.writeHead(200, { "content-type": "text/event-stream" });
        const chunk = (delta: object, finish: string | null) =>
          JSON.stringify({
            id: "c",
            object: "chat.completion.chunk",
            created: 1,
            model: "m",
            choices: [{ index: 0, delta, finish_reason: finish }],
          });
        response.end(ssePayloads([chunk({ role: "assistant", tool_calls: calls }, null), chunk({}, "tool_calls")]));
        return;
      }
      response.writeHead(200, { "content-type": "application/json" });
      response.end(
        JSON.stringify({
          id: "c",
          object: "chat.completion",
          created: 1,
          model: "m",
          choices: [
            { index: 0, message: { role: "assistant", content: null, tool_calls: calls }, finish_reason: "tool_calls" },
          ],
        }),
      );
    });
    const model = new OpenAIChatModel("gpt-4o-mini", { apiKey: "sk-test-0123456789", baseURL: server.url });
    const { output } = await runCall(model, input, mode);
    expect(output.toolCalls.map((call) => call.args)).toEqual([{ q: "a" }, { q: "b" }]);
    expectUniqueIds(output, ["call_dup00001", "call_dup00001"]);
  });

  it.each(callModes)("should replace the repeated id of an Anthropic reply (%s)", async (mode) => {
    const blocks = ["a", "b"].map((q) => ({ type: "tool_use", id: "toolu_dup", name: "lookup", input: { q } }));
    const message = {
      id: "msg",
      type: "message",
      role: "assistant",
      model: "claude-sonnet-4-5",
      content: blocks,
      stop_reason: "tool_use",
      stop_sequence: null,
      usage: { input_tokens: 1, output_tokens: 1 },
    };
    server.handle((request, response) => {
      if (request.json.stream) {
        const events = [
          { type: "message_start", message: { ...message, content: [], stop_reason: null } },
          ...blocks.flatMap((block, index) => [
            { type: "content_block_start", index, content_block: { ...block, input: {} } },
            {
              type: "content_block_delta",
              index,
              delta: { type: "input_json_delta", partial_json: args(block.input.q) },
            },
            { type: "content_block_stop", index },
          ]),
          {
            type: "message_delta",
            delta: { stop_reason: "tool_use", stop_sequence: null },
            usage: { output_tokens: 1 },
          },
          { type: "message_stop" },
        ];
        const reply = anthropicSSE(events.map((event) => JSON.stringify(event)).join("\n"));
        response.writeHead(200, reply.headers);
        response.end(reply.body);
        return;
      }
      response.writeHead(200, { "content-type": "application/json" });
      response.end(JSON.stringify(message));
    });
    const model = new AnthropicChatModel("claude-sonnet-4-5", {
      apiKey: "sk-ant-test-0123456789",
      baseURL: server.url,
    });
    const { output } = await runCall(model, input, mode);
    expect(output.toolCalls.map((call) => call.args)).toEqual([{ q: "a" }, { q: "b" }]);
    expectUniqueIds(output, ["toolu_dup", "toolu_dup"]);
  });
});
