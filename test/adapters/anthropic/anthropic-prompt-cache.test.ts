import { describe, expect, it } from "vitest";
import { AnthropicChatModel } from "../../../src/adapters/anthropic/index.js";
import type { Message, ToolDefinition } from "../../../src/index.js";
import { costOf, runTools } from "../../../src/index.js";
import type { ReplayResponse } from "../../../src/testing/index.js";
import { readOwnAnthropicFixture } from "../../support/anthropic-wire.js";
import { useLoopbackServer, type LoopbackServer } from "../../support/loopback-server.js";
import { jsonResponse } from "../../support/openai-wire.js";
import { hasSharedFixtures, missingFixturesMessage, readFixture } from "../../support/shared-fixtures.js";

const server = useLoopbackServer();

function answer(target: LoopbackServer, ...replies: ReplayResponse[]): void {
  let next = 0;
  target.handle((_request, response) => {
    const reply = replies[Math.min(next++, replies.length - 1)]!;
    response.writeHead(reply.status ?? 200, reply.headers);
    response.end(reply.body as string);
  });
}

const model = (options: ConstructorParameters<typeof AnthropicChatModel>[1] = {}) =>
  new AnthropicChatModel("claude-sonnet-4-5", {
    baseURL: server.url,
    apiKey: "sk-ant-test",
    retry: { maxRetries: 0 },
    ...options,
  });
const text = () => jsonResponse(readOwnAnthropicFixture("message-text-cache-usage.json"));
const body = (index = 0) => server.requests[index]!.json as Record<string, any>;

const lookupIncident: ToolDefinition = {
  name: "lookup_incident",
  inputSchema: { type: "object", properties: { incident_id: { type: "string" } }, required: ["incident_id"] },
};
const pageOnCall: ToolDefinition = {
  name: "page_on_call",
  inputSchema: { type: "object", properties: { team: { type: "string" } }, required: ["team"] },
};
const conversation: Message[] = [
  { role: "system", content: "You are the incident bot." },
  { role: "user", content: "Long runbook …" },
  { role: "assistant", content: "Read it." },
  { role: "user", content: "What broke?" },
];
const mark = { type: "ephemeral" };

/** Every block of a request body that carries `cache_control`, named by where it is. */
function breakpoints(request: Record<string, any>): string[] {
  const found: string[] = [];
  (request.tools ?? []).forEach((tool: any) => tool.cache_control && found.push(`tool:${tool.name}`));
  (request.system ?? []).forEach((block: any, index: number) => block.cache_control && found.push(`system:${index}`));
  (request.messages ?? []).forEach((message: any, index: number) => {
    if (!Array.isArray(message.content)) return;
    message.content.forEach((block: any, at: number) => block.cache_control && found.push(`message:${index}.${at}`));
  });
  return found;
}

describe("AnthropicChatModel promptCache", () => {
  it("should place no breakpoint unless promptCache is auto", async () => {
    answer(server, text());
    await model().create({ messages: conversation, tools: [lookupIncident] });
    expect(breakpoints(body())).toEqual([]);
  });

  it("should mark the tools, the system prompt and the last message, in prompt order, from the model option", async () => {
    answer(server, text());
    const before = structuredClone(conversation);
    await model({ promptCache: "auto" }).create({ messages: conversation, tools: [lookupIncident, pageOnCall] });
    expect(breakpoints(body())).toEqual(["tool:page_on_call", "system:0", "message:2.0"]);
    expect(body().system[0]).toEqual({ type: "text", text: "You are the incident bot.", cache_control: mark });
    expect(body().messages[2].content).toEqual([{ type: "text", text: "What broke?", cache_control: mark }]);
    expect(conversation).toEqual(before);
  });

  it("should take the call's option over the model's", async () => {
    answer(server, text());
    await model({ promptCache: "auto" }).create({ messages: conversation, promptCache: "off" });
    await model().create({ messages: conversation, promptCache: "auto" });
    expect(breakpoints(body(0))).toEqual([]);
    expect(breakpoints(body(1))).toEqual(["system:0", "message:2.0"]);
  });

  it("should never mark a re-ask's guidance: the second request keeps the breakpoint on the caller's last message", async () => {
    const invalidCall = jsonResponse({
      id: "msg_invalid",
      type: "message",
      role: "assistant",
      model: "claude-sonnet-4-5",
      content: [{ type: "tool_use", id: "toolu_1", name: "lookup_incident", input: { incident: 7 } }],
      stop_reason: "tool_use",
      stop_sequence: null,
      usage: { input_tokens: 10, output_tokens: 5 },
    });
    answer(server, invalidCall, text());
    const repairs: unknown[] = [];
    const chat = model({ promptCache: "auto" });
    chat.emitter.on("repair", (event) => repairs.push(event));
    await chat.create({ messages: conversation, tools: [lookupIncident] });
    expect(repairs).toHaveLength(1);
    expect(server.requests).toHaveLength(2);
    const second = body(1);
    // The guidance went after the caller's messages; the breakpoint stays on "What broke?".
    expect(JSON.stringify(second.messages.at(-1))).toContain("could not be used");
    expect(breakpoints(second)).toEqual(["tool:lookup_incident", "system:0", "message:2.0"]);
    expect(breakpoints(body(0))).toEqual(breakpoints(second));
  });

  it("should never place more than four with the caller's own cacheControl, and never one twice", async () => {
    answer(server, text());
    const long: Message[] = [
      ...conversation,
      { role: "assistant", content: "Checking." },
      { role: "user", content: "And now?" },
    ];
    // The caller's three: two tools and a message. One is left: the last message, which caches the most.
    await model({ promptCache: "auto" }).create({
      messages: long,
      tools: [lookupIncident, pageOnCall],
      providerOptions: { cacheControl: { tools: ["lookup_incident", "page_on_call"], messages: [1] } },
    });
    expect(breakpoints(body(0))).toEqual(["tool:lookup_incident", "tool:page_on_call", "message:0.0", "message:4.0"]);
    // The caller marked the system prompt and the last message itself: keelson adds only the tools.
    await model({ promptCache: "auto" }).create({
      messages: long,
      tools: [lookupIncident],
      providerOptions: { cacheControl: { system: true, messages: [-1] } },
    });
    expect(breakpoints(body(1))).toEqual(["tool:lookup_incident", "system:0", "message:4.0"]);
    // Four of the caller's: keelson adds none.
    await model({ promptCache: "auto" }).create({
      messages: long,
      tools: [lookupIncident],
      providerOptions: { cacheControl: { system: true, tools: true, messages: [1, 2] } },
    });
    expect(breakpoints(body(2))).toHaveLength(4);
  });

  it("should never mark runTools' prepareStep note on unavailable tools, a temporary system message", async () => {
    answer(server, text());
    await runTools({
      model: model({ promptCache: "auto" }),
      messages: conversation,
      tools: [
        { ...lookupIncident, execute: () => "ok" },
        { ...pageOnCall, execute: () => "paged" },
      ],
      prepareStep: () => ({ unavailableTools: { page_on_call: "nobody is on call" } }),
    });
    const sent = body(0);
    // The note is lifted into the system prompt, after the caller's: the breakpoint stays on the caller's.
    expect(sent.system).toHaveLength(2);
    expect(sent.system[1].text).toContain("nobody is on call");
    expect(breakpoints(sent)).toEqual(["tool:lookup_incident", "system:0", "message:2.0"]);
  });

  it("should refuse a promptCache that is neither auto nor off, naming it", async () => {
    expect(() => model({ promptCache: "always" as never })).toThrow(/promptCache option must be "auto" or "off"/);
    await expect(model().create({ messages: conversation, promptCache: true as never })).rejects.toThrow(
      /input.promptCache must be "auto" or "off"/,
    );
    expect(server.requests).toHaveLength(0);
  });
});

describe.skipIf(!hasSharedFixtures)(
  hasSharedFixtures ? "AnthropicChatModel promptCache savings, on recorded usage" : missingFixturesMessage,
  () => {
    it("should price tokens read from and written to the cache at their own rates in usage.costUsd", async () => {
      const recorded = readFixture("anthropic/messages-nonstream-cache-read-and-write-tokens.json");
      answer(server, jsonResponse(recorded));
      const chat = model({ promptCache: "auto" });
      const output = await chat.create({ messages: conversation });
      const usage = JSON.parse(recorded).usage as Record<string, number>;
      expect(output.usage).toMatchObject({
        inputTokens: usage.input_tokens! + usage.cache_read_input_tokens! + usage.cache_creation_input_tokens!,
        cachedInputTokens: usage.cache_read_input_tokens,
        cacheWriteInputTokens: usage.cache_creation_input_tokens,
        outputTokens: usage.output_tokens,
      });
      // Claude Sonnet 4.5's list prices, USD per million tokens: input 3, cache read 0.30, cache write 3.75, output 15.
      const pricing = chat.profile.pricing!;
      expect(pricing).toEqual({ inputPerMTok: 3, outputPerMTok: 15, cachedInputPerMTok: 0.3, cacheWritePerMTok: 3.75 });
      const expected =
        (usage.input_tokens! * 3 +
          usage.cache_read_input_tokens! * 0.3 +
          usage.cache_creation_input_tokens! * 3.75 +
          usage.output_tokens! * 15) /
        1_000_000;
      expect(output.usage.costUsd).toBeCloseTo(expected, 12);
      // The same prompt uncached costs more: the 1,111 tokens read from the cache cost a tenth.
      const uncached = costOf({ ...output.usage, cachedInputTokens: 0, cacheWriteInputTokens: 0 }, pricing);
      expect(output.usage.costUsd!).toBeLessThan(uncached);
    });
  },
);
