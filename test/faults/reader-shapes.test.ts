import { describe, expect, it } from "vitest";
import { AnthropicChatModel } from "../../src/adapters/anthropic/index.js";
import { OpenAIResponsesChatModel } from "../../src/adapters/openai/index.js";
import { ChatModelError, ProviderError } from "../../src/index.js";
import type { ChatModel, ChatModelInput } from "../../src/index.js";
import { anthropicSSE } from "../support/anthropic-wire.js";
import { useLoopbackServer } from "../support/loopback-server.js";
import { responsesSSE } from "../support/openai-responses-wire.js";
import { settleCall } from "../support/run-modes.js";
import { pathsOf, replaced } from "../support/value-paths.js";

/**
 * Every reader is total over any JSON shape. For each event of a valid Anthropic and Responses
 * stream (text, reasoning, a tool call, usage), and for the whole reply of `create`, each field at
 * any depth is in turn removed, set to null, or given a value of the wrong type, and the reply is
 * served over loopback through the real SDK. Each call ends in an output or a ProviderError; an
 * unreadable field is named with its event, and a stream error carries what had arrived.
 */
const quiet = { retry: { maxRetries: 0 }, maxRepairAttempts: 0 } as const;
const lookup = {
  name: "lookup",
  inputSchema: { type: "object", properties: { q: { type: "string" } }, required: ["q"] },
};
const input: ChatModelInput = { messages: [{ role: "user", content: "look it up" }], tools: [lookup] };
const wrongValues: unknown[] = [undefined, null, 7, "x", [], {}, true];

/** Each event with one field (never its `type`) changed, each way: the event's index, the path, the value. */
function* eventMutations(events: readonly Record<string, unknown>[]) {
  for (const [index, event] of events.entries())
    for (const path of pathsOf(event).filter((path) => path[0] !== "type"))
      for (const value of wrongValues) yield { index, path, value, type: String(event.type) };
}

async function expectTotal(model: ChatModel, mode: "create" | "createStream", shown: string, eventType?: string) {
  const { output, error, chunks } = await settleCall(model, input, mode);
  if (error) {
    expect(ChatModelError.isInstance(error), `${String(error)} on ${shown}`).toBe(true);
    if (ProviderError.isInstance(error) && error.code === "unreadable_reply" && eventType) {
      expect(error.message, shown).toContain(eventType);
      if (mode === "createStream" && chunks.length > 0) expect(error.partialOutput, shown).toBeDefined();
    }
    return "error";
  }
  expect(typeof output!.text).toBe("string");
  for (const count of Object.values(output!.usage)) expect(typeof count).toBe("number");
  return "output";
}

const anthropicUsage = {
  input_tokens: 5,
  output_tokens: 3,
  cache_creation_input_tokens: 0,
  cache_read_input_tokens: 0,
};
const anthropicMessage = {
  id: "msg_1",
  type: "message",
  role: "assistant",
  model: "claude-sonnet-4-5",
  content: [
    { type: "thinking", thinking: "Look it up.", signature: "sig" },
    { type: "text", text: "Looking." },
    { type: "tool_use", id: "toolu_1", name: "lookup", input: { q: "x" } },
  ],
  stop_reason: "tool_use",
  stop_sequence: null,
  usage: anthropicUsage,
};
const anthropicEvents: Record<string, unknown>[] = [
  { type: "message_start", message: { ...anthropicMessage, content: [], stop_reason: null } },
  { type: "content_block_start", index: 0, content_block: { type: "thinking", thinking: "" } },
  { type: "content_block_delta", index: 0, delta: { type: "thinking_delta", thinking: "Look it up." } },
  { type: "content_block_delta", index: 0, delta: { type: "signature_delta", signature: "sig" } },
  { type: "content_block_stop", index: 0 },
  { type: "content_block_start", index: 1, content_block: { type: "text", text: "" } },
  { type: "content_block_delta", index: 1, delta: { type: "text_delta", text: "Looking." } },
  { type: "content_block_stop", index: 1 },
  {
    type: "content_block_start",
    index: 2,
    content_block: { type: "tool_use", id: "toolu_1", name: "lookup", input: {} },
  },
  { type: "content_block_delta", index: 2, delta: { type: "input_json_delta", partial_json: '{"q":"x"}' } },
  { type: "content_block_stop", index: 2 },
  { type: "message_delta", delta: { stop_reason: "tool_use", stop_sequence: null }, usage: { output_tokens: 3 } },
  { type: "message_stop" },
];

const responsesUsage = {
  input_tokens: 5,
  input_tokens_details: { cached_tokens: 0 },
  output_tokens: 3,
  output_tokens_details: { reasoning_tokens: 1 },
  total_tokens: 8,
};
const reasoningItem = { type: "reasoning", id: "rs_1", summary: [{ type: "summary_text", text: "Look it up." }] };
const messageItem = {
  type: "message",
  id: "msg_1",
  role: "assistant",
  status: "completed",
  content: [{ type: "output_text", text: "Looking.", annotations: [] }],
};
const callItem = {
  type: "function_call",
  id: "fc_1",
  call_id: "call_1",
  name: "lookup",
  arguments: '{"q":"x"}',
  status: "completed",
};
const response = {
  id: "resp_1",
  object: "response",
  created_at: 1,
  model: "gpt-5-mini",
  status: "completed",
  error: null,
  incomplete_details: null,
  output: [reasoningItem, messageItem, callItem],
  usage: responsesUsage,
};
const responsesEvents: Record<string, unknown>[] = [
  { type: "response.created", response: { ...response, status: "in_progress", output: [], usage: null } },
  { type: "response.output_item.added", output_index: 0, item: { ...reasoningItem, summary: [] } },
  { type: "response.reasoning_summary_part.added", output_index: 0, item_id: "rs_1", summary_index: 0 },
  {
    type: "response.reasoning_summary_text.delta",
    output_index: 0,
    item_id: "rs_1",
    summary_index: 0,
    delta: "Look it up.",
  },
  { type: "response.output_item.done", output_index: 0, item: reasoningItem },
  { type: "response.output_item.added", output_index: 1, item: { ...messageItem, content: [] } },
  { type: "response.output_text.delta", output_index: 1, item_id: "msg_1", content_index: 0, delta: "Looking." },
  { type: "response.output_item.done", output_index: 1, item: messageItem },
  { type: "response.output_item.added", output_index: 2, item: { ...callItem, arguments: "" } },
  { type: "response.function_call_arguments.delta", output_index: 2, item_id: "fc_1", delta: '{"q":"x"}' },
  { type: "response.output_item.done", output_index: 2, item: callItem },
  { type: "response.completed", response },
];

const server = useLoopbackServer();
let body = "";
let contentType = "application/json";
function serve(): void {
  server.handle((_request, reply) => {
    reply.writeHead(200, { "content-type": contentType });
    reply.end(body);
  });
}

const adapters = [
  {
    name: "AnthropicChatModel",
    model: () =>
      new AnthropicChatModel("claude-sonnet-4-5", { apiKey: "sk-ant-fuzz-0123456789", baseURL: server.url, ...quiet }),
    reply: anthropicMessage,
    events: anthropicEvents,
    sse: (events: unknown[]) => String(anthropicSSE(events.map((event) => JSON.stringify(event)).join("\n")).body),
  },
  {
    name: "OpenAIResponsesChatModel",
    model: () =>
      new OpenAIResponsesChatModel("gpt-5-mini", { apiKey: "sk-fuzz-0123456789", baseURL: server.url, ...quiet }),
    reply: response,
    events: responsesEvents,
    sse: (events: unknown[]) => String(responsesSSE(events.map((event) => JSON.stringify(event)).join("\n")).body),
  },
];

describe("every reader over any JSON shape, through the real SDKs", () => {
  for (const adapter of adapters) {
    it(`should read the valid reply and stream (${adapter.name})`, async () => {
      serve();
      const model = adapter.model();
      contentType = "application/json";
      body = JSON.stringify(adapter.reply);
      expect(await expectTotal(model, "create", body)).toBe("output");
      contentType = "text/event-stream";
      body = adapter.sse(adapter.events);
      expect(await expectTotal(model, "createStream", body)).toBe("output");
    });

    it(`should end each stream event with each field missing, null or mistyped in an output or a ProviderError (${adapter.name})`, async () => {
      serve();
      const model = adapter.model();
      contentType = "text/event-stream";
      let cases = 0;
      for (const { index, path, value, type } of eventMutations(adapter.events)) {
        const events = adapter.events.map((event, at) => (at === index ? replaced(event, path, value) : event));
        body = adapter.sse(events);
        await expectTotal(model, "createStream", `${type}.${path.join(".")} = ${JSON.stringify(value)}`, type);
        cases++;
      }
      expect(cases).toBeGreaterThan(200);
    });

    it(`should end each reply with each field missing, null or mistyped in an output or a ProviderError (${adapter.name})`, async () => {
      serve();
      const model = adapter.model();
      contentType = "application/json";
      for (const path of pathsOf(adapter.reply))
        for (const value of wrongValues) {
          body = JSON.stringify(replaced(adapter.reply, path, value));
          await expectTotal(model, "create", `${path.join(".")} = ${JSON.stringify(value)}`);
        }
    });
  }

  it("should name the event and field of the shapes first reported, with what had arrived", async () => {
    serve();
    contentType = "text/event-stream";
    const anthropic = adapters[0]!;
    const cases: [Record<string, unknown>[], string][] = [
      [
        anthropicEvents.map((event) => (event.type === "message_delta" ? { type: "message_delta" } : event)),
        "message_delta event's delta",
      ],
      [
        anthropicEvents.map((event, index) => (index === 5 ? { type: "content_block_start", index: 1 } : event)),
        "content_block_start event's content_block",
      ],
      [[{ type: "message_start" }, ...anthropicEvents.slice(1)], "message_start event's message"],
    ];
    for (const [events, named] of cases) {
      body = anthropic.sse(events);
      const { error, chunks } = await settleCall(anthropic.model(), input, "createStream");
      expect(ProviderError.isInstance(error)).toBe(true);
      expect(error!.message).toContain(named);
      // What arrived before the misshapen event is the error's partial output.
      if (named.startsWith("message_delta")) {
        expect(chunks.length).toBeGreaterThan(0);
        expect(error!.partialOutput?.text).toBe("Looking.");
        expect(error!.partialOutput?.reasoning).toBe("Look it up.");
      }
    }
    const responses = adapters[1]!;
    const failed = [...responsesEvents.slice(0, 7), { type: "response.failed" }];
    const responseCases: [Record<string, unknown>[], string][] = [
      [failed, "response.failed event's response"],
      [
        [...responsesEvents.slice(0, -1), { type: "response.completed", response: null }],
        "response.completed event's response",
      ],
      [
        responsesEvents.map((event) =>
          event.type === "response.output_item.added" ? { type: event.type, output_index: 0 } : event,
        ),
        "response.output_item.added event's item",
      ],
    ];
    for (const [events, named] of responseCases) {
      body = responses.sse(events);
      const { error, chunks } = await settleCall(responses.model(), input, "createStream");
      expect(ProviderError.isInstance(error)).toBe(true);
      expect(error!.message).toContain(named);
      if (chunks.length > 0)
        expect(error!.partialOutput?.text ?? "").toBe(
          chunks
            .filter((chunk) => chunk.type === "text-delta")
            .map((chunk) => (chunk as { text: string }).text)
            .join(""),
        );
    }
  });
});
