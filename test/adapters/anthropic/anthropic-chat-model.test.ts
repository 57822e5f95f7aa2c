import { afterEach, describe, expect, it } from "vitest";
import { AnthropicChatModel } from "../../../src/adapters/anthropic/index.js";
import type { Message, ToolDefinition } from "../../../src/index.js";
import { ProviderError } from "../../../src/index.js";
import type { ReplayResponse } from "../../../src/testing/index.js";
import { anthropicError, anthropicSSE, readOwnAnthropicFixture } from "../../support/anthropic-wire.js";
import { useLoopbackServer } from "../../support/loopback-server.js";
import type { LoopbackServer } from "../../support/loopback-server.js";
import { jsonResponse } from "../../support/openai-wire.js";
import { hasSharedFixtures, missingFixturesMessage, readCassette, readFixture } from "../../support/shared-fixtures.js";

const apiKey = "sk-ant-test-SENTINEL-456";
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

const model = (options: ConstructorParameters<typeof AnthropicChatModel>[1] = {}) =>
  new AnthropicChatModel("claude-sonnet-4-5", { baseURL: server.url, apiKey, retry: { maxRetries: 0 }, ...options });

const lookupIncident: ToolDefinition = {
  name: "lookup_incident",
  inputSchema: { type: "object", properties: { incident_id: { type: "string" } }, required: ["incident_id"] },
};
const pageOnCall: ToolDefinition = {
  name: "page_on_call",
  inputSchema: { type: "object", properties: { team: { type: "string" } }, required: ["team"] },
};
const user: Message[] = [{ role: "user", content: "What broke?" }];
const own = (name: string) => jsonResponse(readOwnAnthropicFixture(name));
const body = (index = 0) => server.requests[index]!.json as Record<string, any>;

describe("AnthropicChatModel wire", () => {
  it("sends the key, max_tokens, the system prompt at the top level and the SDK's path", async () => {
    answer(server, own("message-text-cache-usage.json"));
    await model({ defaultMaxTokens: 1234 }).create({
      messages: [{ role: "system", content: "Be brief." }, ...user],
      parameters: { temperature: 0.2, stop: ["###"], topK: 5 },
    });
    const request = server.requests[0]!;
    expect(request.url).toBe("/v1/messages");
    const sentKey = request.headers["x-api-key"] ?? String(request.headers.authorization).replace(/^Bearer /, "");
    expect(sentKey).toBe(apiKey);
    expect(body()).toMatchObject({
      model: "claude-sonnet-4-5",
      max_tokens: 1234,
      system: [{ type: "text", text: "Be brief." }],
      messages: [{ role: "user", content: [{ type: "text", text: "What broke?" }] }],
      temperature: 0.2,
      stop_sequences: ["###"],
      top_k: 5,
      stream: false,
    });
  });

  it("drops the parameters the Messages API has no field for, with one warning each", async () => {
    answer(server, own("message-text-cache-usage.json"));
    const subject = model();
    const warnings: string[] = [];
    subject.emitter.on("warning", (event) => void warnings.push(event.message));
    await subject.create({ messages: user, parameters: { seed: 7, presencePenalty: 0.5, temperature: 0.1 } });
    expect(body().seed).toBeUndefined();
    expect(body().temperature).toBe(0.1);
    expect(warnings).toEqual([
      expect.stringContaining("no parameter 'seed'"),
      expect.stringContaining("no parameter 'presencePenalty'"),
    ]);
  });

  it("needs an API key", () => {
    const saved = process.env.ANTHROPIC_API_KEY;
    delete process.env.ANTHROPIC_API_KEY;
    try {
      expect(() => new AnthropicChatModel("claude-sonnet-4-5", { baseURL: server.url })).toThrow(/ANTHROPIC_API_KEY/);
    } finally {
      if (saved !== undefined) process.env.ANTHROPIC_API_KEY = saved;
    }
  });

  it.each([
    ["auto", "auto", { type: "auto" }],
    ["required", "required", { type: "any" }],
    ["one tool", { type: "tool", name: "page_on_call" } as const, { type: "tool", name: "page_on_call" }],
    ["none", "none", { type: "none" }],
  ] as const)("sends tool_choice %s natively, with the tools", async (_name, toolChoice, wire) => {
    const paged = {
      ...JSON.parse(readOwnAnthropicFixture("message-tool-use.json")),
      content: [{ type: "tool_use", id: "toolu_own_page", name: "page_on_call", input: { team: "auth" } }],
    };
    answer(
      server,
      toolChoice === "none"
        ? own("message-text-cache-usage.json")
        : typeof toolChoice === "object"
          ? jsonResponse(paged)
          : own("message-two-tool-uses.json"),
    );
    const output = await model({ allowParallelToolCalls: true }).create({
      messages: user,
      tools: [lookupIncident, pageOnCall],
      toolChoice: toolChoice === "none" ? "none" : toolChoice === "auto" ? "auto" : "required",
      ...(typeof toolChoice === "object" ? { toolChoice: pageOnCall } : {}),
    });
    expect(output.meta.toolChoice).toBe("native");
    expect(body().tool_choice).toEqual(wire);
    expect(body().tools.map((tool: { name: string }) => tool.name)).toEqual(["lookup_incident", "page_on_call"]);
    expect(body().tools[0].input_schema).toMatchObject({ properties: { incident_id: { type: "string" } } });
  });

  it("sends parallelToolCalls: false as disable_parallel_tool_use", async () => {
    answer(server, own("message-tool-use.json"));
    await model().create({ messages: user, tools: [lookupIncident], toolChoice: "required", parallelToolCalls: false });
    expect(body().tool_choice).toEqual({ type: "any", disable_parallel_tool_use: true });
  });

  it("marks cache_control breakpoints on the system prompt, the last tool and a message", async () => {
    answer(server, own("message-text-cache-usage.json"));
    const messages: Message[] = [
      { role: "system", content: "You are the incident bot." },
      { role: "user", content: "Long runbook …" },
      { role: "assistant", content: "Read it." },
      { role: "user", content: "What broke?" },
    ];
    await model().create({
      messages,
      tools: [lookupIncident, pageOnCall],
      providerOptions: { cacheControl: { system: true, tools: true, messages: [1, -1], ttl: "1h" } },
    });
    const mark = { type: "ephemeral", ttl: "1h" };
    expect(body().system).toEqual([{ type: "text", text: "You are the incident bot.", cache_control: mark }]);
    expect(body().tools[0].cache_control).toBeUndefined();
    expect(body().tools[1].cache_control).toEqual(mark);
    expect(body().messages[0].content).toEqual([{ type: "text", text: "Long runbook …", cache_control: mark }]);
    expect(body().messages[1].content[0].cache_control).toBeUndefined();
    expect(body().messages[2].content).toEqual([{ type: "text", text: "What broke?", cache_control: mark }]);
    expect(body().cacheControl).toBeUndefined();
    // The caller's messages stay as they were.
    expect(messages[1]).toEqual({ role: "user", content: "Long runbook …" });
  });

  it("passes other providerOptions through (a top-level cache_control, thinking)", async () => {
    answer(server, own("message-text-cache-usage.json"));
    await model().create({
      messages: user,
      providerOptions: { cache_control: { type: "ephemeral" }, thinking: { type: "enabled", budget_tokens: 2048 } },
    });
    expect(body()).toMatchObject({
      cache_control: { type: "ephemeral" },
      thinking: { type: "enabled", budget_tokens: 2048 },
    });
  });

  it("refuses a malformed cacheControl before any request, naming the field", async () => {
    answer(server, own("message-text-cache-usage.json"));
    await expect(
      model().create({ messages: user, providerOptions: { cacheControl: { messages: "last" } } }),
    ).rejects.toThrow(/cacheControl messages must be a list of integer positions/);
    expect(server.requests).toHaveLength(0);
  });

  it("sends a tool loop's calls and results back as tool_use and one user turn of tool_result blocks", async () => {
    answer(server, own("message-two-tool-uses.json"), own("message-text-cache-usage.json"));
    const first = await model({ allowParallelToolCalls: true }).create({
      messages: user,
      tools: [lookupIncident, pageOnCall],
    });
    const history: Message[] = [
      ...user,
      first.message,
      { role: "tool", toolCallId: "toolu_own_a", toolName: "lookup_incident", content: "auth-api down" },
      { role: "tool", toolCallId: "toolu_own_b", toolName: "page_on_call", content: "" },
    ];
    await model().create({ messages: history, tools: [lookupIncident, pageOnCall] });
    expect(body(1).messages.slice(1)).toEqual([
      {
        role: "assistant",
        content: [
          { type: "tool_use", id: "toolu_own_a", name: "lookup_incident", input: { incident_id: "INC-001" } },
          { type: "tool_use", id: "toolu_own_b", name: "page_on_call", input: { team: "auth" } },
        ],
      },
      {
        role: "user",
        content: [
          { type: "tool_result", tool_use_id: "toolu_own_a", content: "auth-api down" },
          { type: "tool_result", tool_use_id: "toolu_own_b" },
        ],
      },
    ]);
  });
});

describe("AnthropicChatModel thinking round trip (own fixtures)", () => {
  const expectedParts = [
    { type: "reasoning", text: "The user wants INC-001; look it up.", signature: "c2lnLW93bi1vbmU=" },
    { type: "reasoning", text: "", redactedData: "cmVkYWN0ZWQtb3du" },
  ];
  const sentBack = [
    { type: "thinking", thinking: "The user wants INC-001; look it up.", signature: "c2lnLW93bi1vbmU=" },
    { type: "redacted_thinking", data: "cmVkYWN0ZWQtb3du" },
    { type: "tool_use", id: "toolu_own_think", name: "lookup_incident", input: { incident_id: "INC-001" } },
  ];

  it.each(["create", "stream"] as const)(
    "keeps thinking and redacted_thinking whole and sends them back unchanged (%s)",
    async (mode) => {
      const reply =
        mode === "create"
          ? own("message-thinking-redacted-tool-use.json")
          : anthropicSSE(readOwnAnthropicFixture("stream-thinking-redacted-tool-use.ndjson"));
      answer(server, reply, own("message-text-cache-usage.json"));
      const subject = model();
      const input = { messages: user, tools: [lookupIncident] };
      const first = mode === "create" ? await subject.create(input) : await subject.createStream(input).final();
      expect(first.reasoning).toBe("The user wants INC-001; look it up.");
      expect(first.message.content).toEqual([
        ...expectedParts,
        { type: "tool-call", id: "toolu_own_think", name: "lookup_incident", args: { incident_id: "INC-001" } },
      ]);
      await subject.create({
        messages: [
          ...user,
          first.message,
          { role: "tool", toolCallId: "toolu_own_think", toolName: "lookup_incident", content: "auth-api down" },
        ],
        tools: [lookupIncident],
      });
      expect(body(1).messages[1]).toEqual({ role: "assistant", content: sentBack });
    },
  );

  it("leaves out reasoning another provider produced (no signature), which Anthropic would refuse", async () => {
    answer(server, own("message-text-cache-usage.json"));
    await model().create({
      messages: [
        ...user,
        {
          role: "assistant",
          content: [
            { type: "reasoning", text: "unsigned" },
            { type: "text", text: "Hm." },
          ],
        },
        { role: "user", content: "Go on." },
      ],
    });
    expect(body().messages[1]).toEqual({ role: "assistant", content: [{ type: "text", text: "Hm." }] });
  });
});

describe("AnthropicChatModel errors and usage", () => {
  afterEach(() =>
    server.handle((_request, response) => {
      response.end();
    }),
  );

  it("reads retry-after from a 429 and keeps the SDK error as the cause, without the key", async () => {
    answer(server, anthropicError(429, "rate_limit_error", `limit for ${apiKey}`, { "retry-after": "7" }));
    const error = await model()
      .create({ messages: user })
      .catch((caught: unknown) => caught);
    expect(ProviderError.isInstance(error)).toBe(true);
    const providerError = error as ProviderError;
    expect(providerError).toMatchObject({
      statusCode: 429,
      reason: "rate-limit",
      isRetryable: true,
      retryAfterMs: 7000,
    });
    expect(providerError.code).toBe("rate_limit_error");
    expect((providerError.cause as Error).constructor.name).toBe("RateLimitError");
    expect(providerError.message).not.toContain(apiKey);
  });

  it("retries a 529 overloaded_error and then answers", async () => {
    answer(
      server,
      anthropicError(529, "overloaded_error", "Overloaded", { "retry-after": "0" }),
      own("message-text-cache-usage.json"),
    );
    const output = await model({ retry: { maxRetries: 1 } }).create({ messages: user });
    expect(output.text).toBe("INC-001 is an auth-api outage.");
    expect(server.requests).toHaveLength(2);
  });

  it("ends a stream cut short before message_stop with a retryable network error", async () => {
    answer(server, anthropicSSE(readOwnAnthropicFixture("stream-cut-short.ndjson")));
    const error = await model()
      .createStream({ messages: user })
      .final()
      .catch((caught: unknown) => caught);
    expect(ProviderError.isInstance(error)).toBe(true);
    expect((error as ProviderError).isRetryable).toBe(true);
    expect((error as ProviderError).message).toMatch(/message_stop/);
  });
});

describe.skipIf(!hasSharedFixtures)(
  hasSharedFixtures ? "AnthropicChatModel on recorded traffic" : missingFixturesMessage,
  () => {
    if (!hasSharedFixtures) return;
    const recorded = (name: string, status = 200, headers: Record<string, string> = {}) =>
      jsonResponse(readFixture(`anthropic/${name}`), status, headers);

    it.each([
      [
        "messages-nonstream-thinking-tool-use-round-trip",
        [{ name: "get_user_country", inputSchema: { type: "object", properties: {} } }],
      ],
      ["messages-nonstream-redacted-thinking-round-trip", undefined],
    ] as const)(
      "sends the recorded thinking back exactly as the recorded second request did (%s)",
      async (name, tools) => {
        const [firstRecorded, secondRecorded] = readCassette(`anthropic/${name}.cassette.yaml`);
        const firstBody = firstRecorded!.request.parsed_body as { messages: { content: { text: string }[] }[] };
        const secondBody = secondRecorded!.request.parsed_body as { messages: unknown[] };
        answer(server, recorded(`${name}.0.json`), recorded(`${name}.1.json`));
        const subject = model();
        const question: Message[] = [{ role: "user", content: firstBody.messages[0]!.content[0]!.text }];
        const thinking = { thinking: { type: "enabled", budget_tokens: 3000 } };
        const first = await subject.create({
          messages: question,
          ...(tools ? { tools: [...tools] } : {}),
          providerOptions: thinking,
        });
        // The turn after it, whatever it was, comes after the assistant message in the recorded request.
        const next = secondBody.messages[2] as {
          role: string;
          content: { type: string; tool_use_id?: string; text?: string; content?: string }[];
        };
        const reply: Message[] =
          next.role === "user" && next.content[0]?.type === "tool_result"
            ? [
                {
                  role: "tool",
                  toolCallId: next.content[0].tool_use_id!,
                  toolName: tools![0]!.name,
                  content: next.content[0].content ?? "",
                },
              ]
            : [{ role: "user", content: next.content[0]!.text! }];
        await subject.create({
          messages: [...question, first.message, ...reply],
          ...(tools ? { tools: [...tools] } : {}),
          providerOptions: thinking,
        });
        expect(body(1).messages[1]).toEqual(secondBody.messages[1]);
      },
    );

    it("streams the recorded thinking deltas into one reasoning part with its signature", async () => {
      answer(server, {
        status: 200,
        headers: { "content-type": "text/event-stream" },
        body: readFixture("anthropic/messages-stream-thinking-then-text.sse"),
      });
      const output = await model().createStream({ messages: user }).final();
      const parts = output.message.content as { type: string; text?: string; signature?: string }[];
      expect(parts.map((part) => part.type)).toEqual(["reasoning", "text"]);
      expect(parts[0]!.text).toMatch(/^This is a straightforward question about pedestrian safety\./);
      expect(parts[0]!.text).toHaveLength(202);
      expect(parts[0]!.signature).toMatch(/^EvMCCkYICxgCKkCHP2cSuEdcJK/);
      expect(parts[0]!.signature).toHaveLength(504);
      expect(output.text).toHaveLength(1021);
      expect(output.usage).toMatchObject({ inputTokens: 43, outputTokens: 282 });
    });

    it("serves the recorded 429 headers with the recorded 429 body: a retryable rate limit with Anthropic's type", async () => {
      const headers = JSON.parse(
        readFixture("anthropic/messages-error-429-headers.issue-anthropic-sdk-typescript-357.json"),
      ) as Record<string, string>;
      const { "content-length": _length, connection: _connection, ...served } = headers;
      answer(server, recorded("messages-error-429-rate-limit.issue-cline-252.json", 429, served));
      const error = (await model()
        .create({ messages: user })
        .catch((caught: unknown) => caught)) as ProviderError;
      expect(error).toMatchObject({
        statusCode: 429,
        reason: "rate-limit",
        isRetryable: true,
        code: "rate_limit_error",
      });
      // No retry-after was recorded: the base class's backoff decides the wait.
      expect(error.retryAfterMs).toBeUndefined();
    });

    it("sends the recorded tool_choice values the recorded requests carried", async () => {
      const weather: ToolDefinition = {
        name: "get_weather",
        inputSchema: { type: "object", properties: { city: { type: "string" } }, required: ["city"] },
      };
      const time: ToolDefinition = { name: "get_time", inputSchema: { type: "object", properties: {} } };
      for (const [name, toolChoice] of [
        ["messages-nonstream-tool-choice-any", "required"],
        ["messages-nonstream-tool-choice-tool", weather],
        ["messages-nonstream-tool-choice-none", "none"],
      ] as const) {
        server.requests.length = 0;
        answer(server, recorded(`${name}.json`));
        // Parallel calls allowed, as in the recorded requests (no disable_parallel_tool_use).
        await model({ allowParallelToolCalls: true }).create({ messages: user, tools: [weather, time], toolChoice });
        const [interaction] = readCassette(`anthropic/${name}.cassette.yaml`);
        expect(body().tool_choice, name).toEqual(
          (interaction!.request.parsed_body as { tool_choice: unknown }).tool_choice,
        );
      }
    });
  },
);
