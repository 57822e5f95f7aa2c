import { describe, expect, it } from "vitest";
import { GoogleChatModel } from "../../../src/adapters/google/index.js";
import type { Message, ToolDefinition } from "../../../src/index.js";
import { ProviderError } from "../../../src/index.js";
import type { ReplayResponse } from "../../../src/testing/index.js";
import { geminiError } from "../../support/gemini-wire.js";
import { useLoopbackServer } from "../../support/loopback-server.js";
import type { LoopbackServer } from "../../support/loopback-server.js";
import { jsonResponse, sseResponse } from "../../support/openai-wire.js";
import { hasSharedFixtures, missingFixturesMessage, readCassette, readFixture } from "../../support/shared-fixtures.js";

const apiKey = "AIza-test-SENTINEL-456";
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

const model = (modelId = "gemini-2.5-flash", options: ConstructorParameters<typeof GoogleChatModel>[1] = {}) =>
  new GoogleChatModel(modelId, { baseURL: server.url, apiKey, retry: { maxRetries: 0 }, ...options });
const body = (index = 0) => server.requests[index]!.json as Record<string, any>;
const recorded = (name: string) => jsonResponse(readFixture(`gemini/${name}`));

const weather: ToolDefinition = {
  name: "get_weather",
  description: "Get the current weather for a city.",
  inputSchema: { type: "object", properties: { city: { type: "string" } }, required: ["city"] },
};
const forecast: ToolDefinition = {
  name: "get_forecast",
  inputSchema: { type: "object", properties: { city: { type: "string" } }, required: ["city"] },
};
const textReply = (text: string, usage: object = { promptTokenCount: 5, candidatesTokenCount: 2 }) =>
  jsonResponse({
    candidates: [{ content: { role: "model", parts: [{ text }] }, finishReason: "STOP" }],
    usageMetadata: usage,
  });

/** A signature as bytes: the Python SDK re-encodes what it sends back in the base64url alphabet. */
const signatureBytes = (signature: string) => Buffer.from(signature.replace(/-/g, "+").replace(/_/g, "/"), "base64");

/** A request's contents with the call ids pydantic-ai added removed and each signature as its bytes (hex). */
function comparable(contents: any[]): unknown {
  return contents.map((content) => ({
    role: content.role,
    parts: content.parts.map((part: any) => {
      const { thoughtSignature, functionCall, functionResponse, ...rest } = part;
      return {
        ...rest,
        ...(thoughtSignature === undefined
          ? {}
          : { thoughtSignature: signatureBytes(thoughtSignature).toString("hex") }),
        ...(functionCall ? { functionCall: { name: functionCall.name, args: functionCall.args } } : {}),
        ...(functionResponse ? { functionResponse: { name: functionResponse.name } } : {}),
      };
    }),
  }));
}

describe("GoogleChatModel", () => {
  it("should send the key, the model's path, the system instruction and every sampling parameter", async () => {
    answer(server, textReply("Hi."));
    await model().create({
      messages: [
        { role: "system", content: "Be brief." },
        { role: "user", content: "Hello" },
      ],
      parameters: { temperature: 0.2, maxTokens: 50, topP: 0.9, topK: 5, stop: ["###"], seed: 7 },
    });
    const request = server.requests[0]!;
    expect(request.url).toBe("/v1beta/models/gemini-2.5-flash:generateContent");
    expect(request.headers["x-goog-api-key"]).toBe(apiKey);
    expect(body()).toMatchObject({
      contents: [{ role: "user", parts: [{ text: "Hello" }] }],
      systemInstruction: { parts: [{ text: "Be brief." }] },
      generationConfig: { temperature: 0.2, maxOutputTokens: 50, topP: 0.9, topK: 5, stopSequences: ["###"], seed: 7 },
    });
  });

  it.each([
    ["auto", { mode: "AUTO" }],
    ["none", { mode: "NONE" }],
    ["required", { mode: "ANY" }],
    [{ type: "tool", name: "get_weather" } as const, { mode: "ANY", allowedFunctionNames: ["get_weather"] }],
  ] as const)("should send toolChoice %j natively as functionCallingConfig %j", async (toolChoice, expected) => {
    answer(
      server,
      toolChoice === "none"
        ? textReply("Sunny.")
        : jsonResponse({
            candidates: [
              {
                content: { role: "model", parts: [{ functionCall: { name: "get_weather", args: { city: "Paris" } } }] },
                finishReason: "STOP",
              },
            ],
          }),
    );
    const output = await model().create({
      messages: [{ role: "user", content: "Weather in Paris?" }],
      tools: [weather, forecast],
      toolChoice,
    });
    expect(output.meta.toolChoice).toBe("native");
    expect(body().toolConfig).toEqual({ functionCallingConfig: expected });
    expect(body().tools[0].functionDeclarations.map((tool: { name: string }) => tool.name)).toEqual([
      "get_weather",
      "get_forecast",
    ]);
  });

  it("should map reasoningEffort to a thinking budget with the thoughts returned", async () => {
    answer(server, textReply("Hi."));
    await model().create({ messages: [{ role: "user", content: "Hi" }], parameters: { reasoningEffort: "low" } });
    expect(body().generationConfig.thinkingConfig).toEqual({ thinkingBudget: 1024, includeThoughts: true });
  });

  it("should count thinking in the output and cached tokens in the input", async () => {
    answer(
      server,
      textReply("Hi.", {
        promptTokenCount: 1200,
        cachedContentTokenCount: 1000,
        candidatesTokenCount: 10,
        thoughtsTokenCount: 90,
        totalTokenCount: 1300,
      }),
    );
    const output = await model().create({ messages: [{ role: "user", content: "Hi" }] });
    expect(output.usage).toEqual({
      inputTokens: 1200,
      outputTokens: 100,
      totalTokens: 1300,
      reasoningTokens: 90,
      cachedInputTokens: 1000,
      // keelson's table prices gemini-2.5-flash: 200 uncached input, 1,000 cached, 100 output tokens.
      costUsd: expect.closeTo((200 * 0.3 + 1000 * 0.075 + 100 * 2.5) / 1e6, 12),
    });
  });

  it("should wait as long as Retry-After says on a 429", async () => {
    answer(server, geminiError(429, "RESOURCE_EXHAUSTED", "Resource has been exhausted", { "retry-after": "3" }));
    const error = await model()
      .create({ messages: [{ role: "user", content: "Hi" }] })
      .catch((caught: unknown) => caught);
    expect(ProviderError.isInstance(error)).toBe(true);
    expect((error as ProviderError).retryAfterMs).toBe(3000);
    expect(JSON.stringify(error)).not.toContain(apiKey);
    expect(String((error as Error).message)).not.toContain(apiKey);
  });

  it("should refuse a model without a key, naming the options and variables that give one", () => {
    const saved = { gemini: process.env.GEMINI_API_KEY, google: process.env.GOOGLE_API_KEY };
    delete process.env.GEMINI_API_KEY;
    delete process.env.GOOGLE_API_KEY;
    try {
      expect(() => new GoogleChatModel("gemini-2.5-flash")).toThrow(/GEMINI_API_KEY/);
    } finally {
      if (saved.gemini !== undefined) process.env.GEMINI_API_KEY = saved.gemini;
      if (saved.google !== undefined) process.env.GOOGLE_API_KEY = saved.google;
    }
  });
});

describe.skipIf(!hasSharedFixtures)(
  hasSharedFixtures ? "GoogleChatModel on recorded traffic" : missingFixturesMessage,
  () => {
    if (!hasSharedFixtures) return;

    it("should send a function call back with its thoughtSignature, as the recorded second request did", async () => {
      const [first, second] = readCassette(
        "gemini/generate-nonstream-function-call-round-trip-mode-auto.cassette.yaml",
      );
      answer(
        server,
        recorded("generate-nonstream-function-call-round-trip-mode-auto.0.json"),
        recorded("generate-nonstream-function-call-round-trip-mode-auto.1.json"),
      );
      const gemini = model();
      const messages: Message[] = [{ role: "user", content: "What's the weather in Paris?" }];
      const output = await gemini.create({ messages, tools: [weather], toolChoice: "auto" });
      const signature = (first!.response.parsed_body as any).candidates[0].content.parts[0].thoughtSignature;
      expect(output.toolCalls).toMatchObject([{ name: "get_weather", args: { city: "Paris" }, signature }]);
      const [call] = output.toolCalls;
      const reply = await gemini.create({
        messages: [
          ...messages,
          output.message,
          { role: "tool", toolCallId: call!.id, toolName: call!.name, content: "Sunny, 22C in Paris" },
        ],
        tools: [weather],
        toolChoice: "auto",
      });
      expect(comparable(body(1).contents)).toEqual(comparable((second!.request.parsed_body as any).contents));
      expect(reply.text).toBe(
        JSON.parse(readFixture("gemini/generate-nonstream-function-call-round-trip-mode-auto.1.json")).candidates[0]
          .content.parts[0].text,
      );
    });

    it("should keep the signature on the first of three parallel calls only, as Gemini sent them", async () => {
      const [, second] = readCassette(
        "gemini/generate-nonstream-three-parallel-function-calls-round-trip.cassette.yaml",
      );
      answer(
        server,
        recorded("generate-nonstream-three-parallel-function-calls-round-trip.0.json"),
        recorded("generate-nonstream-three-parallel-function-calls-round-trip.1.json"),
      );
      const gemini = model("gemini-3-flash-preview", { allowParallelToolCalls: true });
      const topic: ToolDefinition = { name: "generate_topic", inputSchema: { type: "object", properties: {} } };
      const messages: Message[] = [{ role: "user", content: "" }];
      const output = await gemini.create({ messages, tools: [topic], toolChoice: "required" });
      expect(output.toolCalls.map((call) => call.signature !== undefined)).toEqual([true, false, false]);
      const results = ["cars", "penguins", "cars"];
      await gemini.create({
        messages: [
          ...messages,
          output.message,
          ...output.toolCalls.map((call, index): Message => ({
            role: "tool",
            toolCallId: call.id,
            toolName: call.name,
            content: results[index]!,
          })),
        ],
        tools: [topic],
        toolChoice: "required",
      });
      expect(comparable(body(1).contents)).toEqual(comparable((second!.request.parsed_body as any).contents));
    });

    it("should send thoughts and the answer's signature back as the recorded second request did", async () => {
      const [, second] = readCassette("gemini/generate-nonstream-thought-parts-round-trip.cassette.yaml");
      answer(
        server,
        recorded("generate-nonstream-thought-parts-round-trip.0.json"),
        recorded("generate-nonstream-thought-parts-round-trip.1.json"),
      );
      const gemini = model("gemini-3-pro-preview");
      const providerOptions = { thinkingConfig: { includeThoughts: true } };
      const messages: Message[] = [{ role: "user", content: "How do I cross the street?" }];
      const output = await gemini.create({ messages, providerOptions });
      expect(output.reasoning).not.toBe("");
      expect(output.usage.reasoningTokens).toBe(1001);
      const next = (second!.request.parsed_body as any).contents[2].parts[0].text as string;
      await gemini.create({
        messages: [...messages, output.message, { role: "user", content: next }],
        providerOptions,
      });
      expect(comparable(body(1).contents)).toEqual(comparable((second!.request.parsed_body as any).contents));
    });

    it("should send a streamed call's signature back as the recorded second request did", async () => {
      const [, second] = readCassette("gemini/stream-function-call-thought-signature-round-trip.cassette.yaml");
      answer(
        server,
        sseResponse(readFixture("gemini/stream-function-call-thought-signature-round-trip.0.sse")),
        sseResponse(readFixture("gemini/stream-function-call-thought-signature-round-trip.1.sse")),
      );
      const gemini = model("gemini-3-pro-preview");
      const country: ToolDefinition = { name: "get_country", inputSchema: { type: "object", properties: {} } };
      const messages: Message[] = [{ role: "user", content: "What is the capital of the user country? Call the tool" }];
      const output = await gemini.createStream({ messages, tools: [country] }).final();
      expect(output.toolCalls[0]?.signature).toBeDefined();
      const stream = gemini.createStream({
        messages: [
          ...messages,
          output.message,
          { role: "tool", toolCallId: output.toolCalls[0]!.id, toolName: "get_country", content: "Mexico" },
        ],
        tools: [country],
      });
      const answerText = (await stream.final()).text;
      expect(server.requests[1]!.url).toContain(":streamGenerateContent");
      expect(comparable(body(1).contents)).toEqual(comparable((second!.request.parsed_body as any).contents));
      expect(answerText).toContain("Mexico City");
    });

    it("should stream thoughts as reasoning and keep the answer's signature", async () => {
      answer(server, sseResponse(readFixture("gemini/stream-thought-parts.sse")));
      const chunks: string[] = [];
      const stream = model("gemini-2.5-pro").createStream({ messages: [{ role: "user", content: "Hi" }] });
      for await (const chunk of stream) chunks.push(chunk.type);
      const output = await stream.final();
      expect(chunks).toContain("reasoning-delta");
      expect(output.reasoning).not.toBe("");
      const parts = output.message.content as { type: string; signature?: string }[];
      expect(parts.filter((part) => part.type === "reasoning" && part.signature)).toHaveLength(1);
    });

    it("should send a JSON-schema response format as responseJsonSchema and parse the object", async () => {
      answer(server, recorded("generate-nonstream-response-json-schema.json"));
      const [interaction] = readCassette("gemini/generate-nonstream-response-json-schema.cassette.yaml");
      const schema =
        (interaction!.request.parsed_body as any).generationConfig.responseJsonSchema ??
        (interaction!.request.parsed_body as any).generationConfig.response_json_schema;
      const output = await model("gemini-2.0-flash").create({
        messages: [{ role: "user", content: "What is the largest city in Mexico?" }],
        responseFormat: { type: "json-schema", name: "CityLocation", schema },
      });
      expect(body().generationConfig.responseMimeType).toBe("application/json");
      expect(body().generationConfig.responseJsonSchema).toBeDefined();
      expect(output.object).toEqual(JSON.parse(output.text));
    });

    it("should end a blocked prompt (no candidates, promptFeedback.blockReason) as content-filter", async () => {
      answer(server, recorded("vertex-generate-nonstream-prompt-blocked.json"));
      const output = await model().create({ messages: [{ role: "user", content: "Hi" }] });
      expect(output.finishReason).toBe("content-filter");
      expect(output.text).toBe("");
    });

    it("should read the wait from RetryInfo.retryDelay in a 429's body", async () => {
      answer(server, {
        status: 429,
        headers: { "content-type": "application/json" },
        body: readFixture("gemini/generate-error-429-quota-failure-retry-info.issue-roo-code-3883.json"),
      });
      const error = (await model()
        .create({ messages: [{ role: "user", content: "Hi" }] })
        .catch((caught: unknown) => caught)) as ProviderError;
      expect(error.reason).toBe("rate-limit");
      expect(error.retryAfterMs).toBe(26_000);
    });
  },
);

describe("GoogleChatModel.countTokens", () => {
  const fox = "The quick brown fox jumps over the lazydog.";

  it.skipIf(!hasSharedFixtures)(
    "should ask Gemini's countTokens endpoint, as the recorded request did, and answer its exact count",
    async () => {
      const [interaction] = readCassette("gemini/count-tokens.cassette.yaml");
      answer(server, jsonResponse(interaction!.response.parsed_body as object));
      const count = await model().countTokens({ messages: [{ role: "user", content: fox }] });
      expect(count).toEqual({ inputTokens: 12, exact: true });
      expect(server.requests).toHaveLength(1);
      expect(server.requests[0]!.url).toBe(new URL(interaction!.request.uri).pathname);
      expect(server.requests[0]!.headers["x-goog-api-key"]).toBe(apiKey);
      expect(body()).toEqual(interaction!.request.parsed_body);
    },
  );

  it("should count a system instruction and tools on Vertex AI, sent with the contents", async () => {
    answer(server, jsonResponse({ totalTokens: 57, promptTokensDetails: [{ modality: "TEXT", tokenCount: 57 }] }));
    const count = await model("gemini-2.5-flash", { vertexai: true }).countTokens({
      messages: [
        { role: "system", content: "Be brief." },
        { role: "user", content: "What's the weather in Paris?" },
      ],
      tools: [weather],
    });
    expect(count).toEqual({ inputTokens: 57, exact: true });
    expect(server.requests[0]!.url).toMatch(/models\/gemini-2\.5-flash:countTokens$/);
    expect(body()).toMatchObject({
      contents: [{ role: "user", parts: [{ text: "What's the weather in Paris?" }] }],
      systemInstruction: { parts: [{ text: "Be brief." }] },
      tools: [{ functionDeclarations: [{ name: "get_weather" }] }],
    });
  });

  it.each<[string, { messages: Message[]; tools?: ToolDefinition[] }]>([
    [
      "a system instruction",
      {
        messages: [
          { role: "system", content: "Be brief." },
          { role: "user", content: fox },
        ],
      },
    ],
    ["tools", { messages: [{ role: "user", content: fox }], tools: [weather] }],
  ])(
    "should estimate (exact: false), sending nothing, for a request with %s the Gemini API cannot count",
    async (_what, input) => {
      answer(server, jsonResponse({ totalTokens: 1 }));
      const count = await model().countTokens(input);
      expect(count.exact).toBe(false);
      expect(count.inputTokens).toBeGreaterThan(0);
      expect(server.requests).toHaveLength(0);
    },
  );

  it.each([
    ["an error status", geminiError(500, "INTERNAL", "An internal error has occurred.")],
    ["a count without totalTokens", jsonResponse({})],
    ["a body that is not JSON", { status: 200, headers: { "content-type": "application/json" }, body: "<html>" }],
  ] as const)("should estimate (exact: false) when the endpoint answers %s", async (_what, reply) => {
    answer(server, reply as ReplayResponse);
    const count = await model().countTokens({ messages: [{ role: "user", content: fox }] });
    expect(count.exact).toBe(false);
    expect(count.inputTokens).toBeGreaterThan(0);
    expect(server.requests).toHaveLength(1);
  });
});
