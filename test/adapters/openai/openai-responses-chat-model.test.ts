import { describe, expect, it } from "vitest";
import { resetLearnedCapabilities } from "../../../src/core/capabilities/learned-capabilities.js";
import { OpenAIResponsesChatModel } from "../../../src/adapters/openai/index.js";
import type { Message, ToolDefinition } from "../../../src/index.js";
import { ProviderError } from "../../../src/index.js";
import type { ReplayResponse } from "../../../src/testing/index.js";
import { useLoopbackServer } from "../../support/loopback-server.js";
import type { LoopbackServer } from "../../support/loopback-server.js";
import { responsesSSE } from "../../support/openai-responses-wire.js";
import { jsonResponse, readOwnOpenAIFixture } from "../../support/openai-wire.js";
import { hasSharedFixtures, missingFixturesMessage, readCassette, readFixture } from "../../support/shared-fixtures.js";

const apiKey = "sk-test-SENTINEL-responses";
const server = useLoopbackServer();

/** The server answers the next requests with these replies, in order (the last one again after that). */
function answer(target: LoopbackServer, ...replies: ReplayResponse[]): void {
  let next = 0;
  target.handle((_request, response) => {
    const reply = replies[Math.min(next++, replies.length - 1)]!;
    response.writeHead(reply.status ?? 200, reply.headers);
    response.end(reply.body as string);
  });
}

const model = (options: ConstructorParameters<typeof OpenAIResponsesChatModel>[1] = {}) =>
  new OpenAIResponsesChatModel("gpt-5-mini", {
    baseURL: `${server.url}/v1`,
    apiKey,
    toolChoiceSupport: ["auto", "none", "required", "single"],
    retry: { maxRetries: 0 },
    ...options,
  });

const lookupIncident: ToolDefinition = {
  name: "lookup_incident",
  inputSchema: { type: "object", properties: { incident_id: { type: "string" } }, required: ["incident_id"] },
};
const user: Message[] = [{ role: "user", content: "What broke?" }];
const own = (name: string) => jsonResponse(readOwnOpenAIFixture(name));
const body = (index = 0) => server.requests[index]!.json as Record<string, any>;

describe("OpenAIResponsesChatModel wire", () => {
  it("posts to /v1/responses with input items, function tools (not strict) and the parameters", async () => {
    answer(server, own("responses-tool-call.json"));
    await model().create({
      messages: [{ role: "system", content: "Be brief." }, ...user],
      tools: [lookupIncident],
      toolChoice: { type: "tool", name: "lookup_incident" },
      parameters: { temperature: 0.3, maxTokens: 500, reasoningEffort: "low", stop: ["###"] },
    });
    expect(server.requests[0]!.url).toBe("/v1/responses");
    expect(server.requests[0]!.headers.authorization).toBe(`Bearer ${apiKey}`);
    expect(body()).toMatchObject({
      model: "gpt-5-mini",
      input: [
        { role: "system", content: "Be brief." },
        { role: "user", content: "What broke?" },
      ],
      tools: [{ type: "function", name: "lookup_incident", strict: false }],
      tool_choice: { type: "function", name: "lookup_incident" },
      parallel_tool_calls: false,
      temperature: 0.3,
      max_output_tokens: 500,
      reasoning: { effort: "low" },
      stream: false,
    });
    // The Responses API has no stop sequences: not sent, and said so.
    expect(body().stop).toBeUndefined();
  });

  it("warns about the parameters it drops (stop, seed), once per process", async () => {
    // An earlier test of this file dropped `stop` already.
    resetLearnedCapabilities();
    answer(server, own("responses-text-usage.json"));
    const subject = model();
    const warnings: string[] = [];
    subject.emitter.on("warning", (event) => void warnings.push(event.message));
    await subject.create({ messages: user, parameters: { stop: ["###"], seed: 3 } });
    expect(body().stop).toBeUndefined();
    expect(body().seed).toBeUndefined();
    expect(warnings).toEqual([
      expect.stringContaining("no parameter 'stop'"),
      expect.stringContaining("no parameter 'seed'"),
    ]);
    const again = model();
    again.emitter.on("warning", (event) => void warnings.push(event.message));
    await again.create({ messages: user, parameters: { stop: ["###"], seed: 3 } });
    expect(body().seed).toBeUndefined();
    expect(warnings).toHaveLength(2);
  });

  it("asks for structured output through text.format json_schema (strict)", async () => {
    const schema = { type: "object", properties: { cause: { type: "string" } }, required: ["cause"] };
    const text = JSON.stringify({ cause: "auth-api outage" });
    const reply = JSON.parse(readOwnOpenAIFixture("responses-text-usage.json"));
    reply.output[0].content[0].text = text;
    answer(server, jsonResponse(reply));
    const output = await model().create({ messages: user, responseFormat: schema });
    expect(body().text.format).toMatchObject({ type: "json_schema", strict: true, schema: { required: ["cause"] } });
    expect(output.object).toEqual({ cause: "auth-api outage" });
  });

  it("with store: false sends store false and asks for the encrypted reasoning", async () => {
    answer(server, own("responses-text-usage.json"));
    await model({ store: false }).create({ messages: user });
    expect(body()).toMatchObject({ store: false, include: ["reasoning.encrypted_content"] });
  });

  it.each(["create", "stream"] as const)(
    "keeps a reasoning item whole in the message and sends it back before its function_call (%s)",
    async (mode) => {
      const first =
        mode === "create"
          ? own("responses-reasoning-tool-call.json")
          : responsesSSE(readOwnOpenAIFixture("responses-stream-reasoning-tool-call.ndjson"));
      answer(server, first, own("responses-text-usage.json"));
      const subject = model({ store: false });
      const input = { messages: user, tools: [lookupIncident] };
      const output = mode === "create" ? await subject.create(input) : await subject.createStream(input).final();
      expect(output.reasoning).toBe("**Look up the incident**\n\nThen page the team.");
      expect(output.message.content).toEqual([
        {
          type: "reasoning",
          text: "**Look up the incident**\n\nThen page the team.",
          id: "rs_own_1",
          signature: "gAAAAown-encrypted-reasoning-1",
        },
        { type: "tool-call", id: "call_own_r", name: "lookup_incident", args: { incident_id: "INC-001" } },
      ]);
      expect(output.usage.reasoningTokens).toBe(80);
      await subject.create({
        messages: [
          ...user,
          output.message,
          { role: "tool", toolCallId: "call_own_r", toolName: "lookup_incident", content: "auth-api down" },
        ],
        tools: [lookupIncident],
      });
      expect(body(1).input.slice(1)).toEqual([
        {
          type: "reasoning",
          id: "rs_own_1",
          summary: [{ type: "summary_text", text: "**Look up the incident**\n\nThen page the team." }],
          encrypted_content: "gAAAAown-encrypted-reasoning-1",
        },
        {
          type: "function_call",
          call_id: "call_own_r",
          name: "lookup_incident",
          arguments: '{"incident_id":"INC-001"}',
        },
        { type: "function_call_output", call_id: "call_own_r", output: "auth-api down" },
      ]);
    },
  );

  it("leaves out reasoning without an item id (another provider's), which OpenAI cannot take back", async () => {
    answer(server, own("responses-text-usage.json"));
    await model().create({
      messages: [
        ...user,
        {
          role: "assistant",
          content: [
            { type: "reasoning", text: "claude thought", signature: "sig" },
            { type: "text", text: "Hm." },
          ],
        },
        { role: "user", content: "Go on." },
      ],
    });
    expect(body().input).toEqual([
      { role: "user", content: "What broke?" },
      { role: "assistant", content: "Hm." },
      { role: "user", content: "Go on." },
    ]);
  });

  it("fails a stream cut short before response.completed with a retryable network error", async () => {
    const events = readOwnOpenAIFixture("responses-stream-tool-call-split.ndjson").trim().split("\n").slice(0, -1);
    answer(server, responsesSSE(events.join("\n")));
    const error = await model()
      .createStream({ messages: user, tools: [lookupIncident] })
      .final()
      .catch((caught: unknown) => caught);
    expect(ProviderError.isInstance(error)).toBe(true);
    expect(error).toMatchObject({ reason: "network", isRetryable: true });
  });

  it("uses its own cache and learning endpoint, apart from the chat completions API's", () => {
    const subject = model();
    expect((subject as unknown as { endpoint: string }).endpoint).toBe(`${server.url}/v1/responses`);
  });
});

describe.skipIf(!hasSharedFixtures)(
  hasSharedFixtures ? "OpenAIResponsesChatModel on recorded traffic" : missingFixturesMessage,
  () => {
    if (!hasSharedFixtures) return;
    const recorded = (name: string) => jsonResponse(readFixture(`openai-responses/${name}`));
    const weather: ToolDefinition = {
      name: "get_weather",
      inputSchema: { type: "object", properties: { city: { type: "string" } }, required: ["city"] },
    };

    it.each([
      ["responses-nonstream-reasoning-tool-call-round-trip", weather, "Sunny, 22C in Paris"],
      [
        "responses-nonstream-reasoning-summary-then-cached-tokens",
        { name: "update_plan", inputSchema: { type: "object", properties: { plan: { type: "string" } } } },
        "plan updated",
      ],
    ] as const)(
      "sends the recorded reasoning item back as the recorded second request did (%s)",
      async (name, tool, result) => {
        const [, second] = readCassette(`openai-responses/${name}.cassette.yaml`);
        const recordedInput = (second!.request.parsed_body as { input: Record<string, unknown>[] }).input;
        answer(server, recorded(`${name}.0.json`), recorded(`${name}.1.json`));
        const subject = model({ store: false });
        const question: Message[] = [{ role: "user", content: recordedInput[0]!.content as string }];
        const first = await subject.create({ messages: question, tools: [tool] });
        const call = first.toolCalls[0]!;
        const final = await subject.create({
          messages: [
            ...question,
            first.message,
            { role: "tool", toolCallId: call.id, toolName: call.name, content: result },
          ],
          tools: [tool],
        });
        expect(final.finishReason).toBe("stop");
        const sent = body(1).input as Record<string, unknown>[];
        // The reasoning item: id, encrypted_content and summary exactly as recorded (a multi-part summary joined).
        const recordedReasoning = recordedInput[1] as { summary: { text: string }[] };
        expect(sent[1]).toEqual({
          ...recordedReasoning,
          summary:
            recordedReasoning.summary.length === 0
              ? []
              : [{ type: "summary_text", text: recordedReasoning.summary.map((part) => part.text).join("\n\n") }],
        });
        // The function_call right after it (the recorded one also carried its `fc_` item id, which is optional).
        const { id: _id, ...recordedCall } = recordedInput[2] as Record<string, unknown>;
        expect(sent[2]).toEqual(recordedCall);
        expect(sent[3]).toEqual(recordedInput[3]);
      },
    );

    it("reads the recorded reasoning summary parts and the reasoning tokens", async () => {
      answer(server, recorded("responses-nonstream-reasoning-summary-then-cached-tokens.0.json"));
      const output = await model({ allowParallelToolCalls: true }).create({
        messages: user,
        tools: [{ name: "update_plan", inputSchema: { type: "object", properties: { plan: { type: "string" } } } }],
      });
      const part = (output.message.content as { type: string; text: string; signature?: string; id?: string }[])[0]!;
      expect(part.type).toBe("reasoning");
      expect(part.id).toMatch(/^rs_/);
      expect(part.signature).toHaveLength(9572);
      expect(part.text.split("\n\n").length).toBeGreaterThanOrEqual(5);
      expect(output.usage.reasoningTokens).toBe(1792);
    });

    it("streams the recorded reasoning item and keeps the encrypted_content of its output_item.done", async () => {
      const sse = readFixture("openai-responses/responses-stream-reasoning-encrypted-then-tool-call.sse");
      answer(server, { status: 200, headers: { "content-type": "text/event-stream" }, body: sse });
      const output = await model()
        .createStream({
          messages: user,
          tools: [
            { name: "final_result", inputSchema: { type: "object", properties: { result: { type: "integer" } } } },
          ],
        })
        .final();
      const done = sse
        .split("\n")
        .filter((line) => line.startsWith("data: "))
        .map(
          (line) => JSON.parse(line.slice(6)) as { type: string; item?: { type: string; encrypted_content?: string } },
        )
        .find((event) => event.type === "response.output_item.done" && event.item?.type === "reasoning")!;
      const part = (output.message.content as { type: string; signature?: string }[])[0]!;
      expect(part.type).toBe("reasoning");
      expect(part.signature).toBe(done.item!.encrypted_content);
      expect(output.usage.reasoningTokens).toBe(448);
    });

    it("raises the error event inside a 200 stream (insufficient_quota) as a ProviderError, not retried", async () => {
      answer(
        server,
        responsesSSE(readFixture("openai-responses/responses-stream-error-event-insufficient-quota.chunks.ndjson")),
      );
      const error = await model({ retry: { maxRetries: 2 } })
        .createStream({ messages: user })
        .final()
        .catch((caught: unknown) => caught);
      expect(ProviderError.isInstance(error)).toBe(true);
      expect(error).toMatchObject({ code: "insufficient_quota", isRetryable: false });
      expect(server.requests).toHaveLength(1);
    });

    it("maps a recorded status: incomplete edited to max_output_tokens to length", async () => {
      const reply = JSON.parse(readFixture("openai-responses/responses-nonstream-text.json"));
      reply.status = "incomplete";
      reply.incomplete_details = { reason: "max_output_tokens" };
      answer(server, jsonResponse(reply));
      const output = await model().create({ messages: user });
      expect(output.finishReason).toBe("length");
    });
  },
);
