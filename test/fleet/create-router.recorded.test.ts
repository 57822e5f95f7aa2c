import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { AnthropicChatModel } from "../../src/adapters/anthropic/index.js";
import { OllamaChatModel } from "../../src/adapters/ollama/index.js";
import { OpenAIChatModel, OpenAIResponsesChatModel } from "../../src/adapters/openai/index.js";
import {
  createRouter,
  type ChatModelInput,
  type ChatModelLike,
  type Message,
  type ToolDefinition,
  type WarningEvent,
} from "../../src/index.js";
import { readOwnJSON, replyWith } from "../adapters/ollama/ollama-harness.js";
import { startBedrockLoopback, type BedrockLoopback } from "../support/bedrock-loopback.js";
import { sendJSON as sendHttp2JSON } from "../support/loopback-http2-server.js";
import { sendJSON, startLoopbackServer, type Handler, type LoopbackServer } from "../support/loopback-server.js";
import { readOwnOpenAIFixture } from "../support/openai-wire.js";
import { hasSharedFixtures, missingFixturesMessage, readFixture } from "../support/shared-fixtures.js";

const apiKey = "sk-test-router";

/** Answers each request with the next handler of the list (the last one again when it runs out). */
function inTurn(server: LoopbackServer, ...handlers: Handler[]): void {
  let next = 0;
  server.handle((request, response) => handlers[Math.min(next++, handlers.length - 1)]!(request, response));
}

const recorded =
  (relative: string, status = 200): Handler =>
  (_request, response) =>
    sendJSON(response, status, readFixture(relative));

describe("createRouter over two adapters' recorded traffic", () => {
  let openai: LoopbackServer;
  let ollama: LoopbackServer;
  beforeAll(async () => {
    openai = await startLoopbackServer((_request, response) =>
      sendJSON(response, 200, readOwnOpenAIFixture("chat-text-reasoning-usage.json")),
    );
    ollama = await startLoopbackServer(replyWith(readOwnJSON("api-chat-nonstream-text.json")));
  });
  afterAll(async () => {
    await openai.close();
    await ollama.close();
  });
  beforeEach(() => {
    openai.requests.length = 0;
    ollama.requests.length = 0;
  });

  const members = () => [
    new OpenAIChatModel("gpt-4o-mini", { baseURL: `${openai.url}/v1`, apiKey, retry: { maxRetries: 0 } }),
    new OllamaChatModel("llama3.2", { host: ollama.url, retry: { maxRetries: 0 } }),
  ];
  const ask: ChatModelInput = { messages: [{ role: "user", content: "What is the weather in Paris?" }] };

  it("should send calls to each provider in turn with round-robin: each server sees half", async () => {
    const model = createRouter(members(), { strategy: "round-robin" });
    const names: string[] = [];
    for (let index = 0; index < 6; index++) names.push((await model.create(ask)).meta.model.providerId);
    expect(names).toEqual(["openai", "ollama", "openai", "ollama", "openai", "ollama"]);
    expect([openai.requests.length, ollama.requests.length]).toEqual([3, 3]);
  });

  it("should rest the provider that failed and send the calls after to the other one", async () => {
    openai.handle((_request, response) => sendJSON(response, 500, readOwnOpenAIFixture("error-500-server.json")));
    try {
      const model = createRouter(members(), { strategy: "round-robin", cooldownMs: 60_000 });
      const names: string[] = [];
      for (let index = 0; index < 4; index++) names.push((await model.create(ask)).meta.model.providerId);
      expect(names).toEqual(["ollama", "ollama", "ollama", "ollama"]);
      expect(openai.requests).toHaveLength(1);
    } finally {
      openai.handle((_request, response) =>
        sendJSON(response, 200, readOwnOpenAIFixture("chat-text-reasoning-usage.json")),
      );
    }
  });

  it("should keep a 429's Retry-After as the provider's rest", async () => {
    openai.handle((_request, response) =>
      sendJSON(response, 429, readOwnOpenAIFixture("error-429-rate-limit.json"), { "retry-after": "3600" }),
    );
    try {
      const model = createRouter(members(), { strategy: "least-busy", cooldownMs: 0 });
      for (let index = 0; index < 3; index++) expect((await model.create(ask)).meta.model.providerId).toBe("ollama");
      expect(openai.requests).toHaveLength(1);
    } finally {
      openai.handle((_request, response) =>
        sendJSON(response, 200, readOwnOpenAIFixture("chat-text-reasoning-usage.json")),
      );
    }
  });
});

/** A member that sends Anthropic's extended thinking with every call (what a per-member option would set). */
function withThinking(model: AnthropicChatModel): ChatModelLike {
  const thinking = { thinking: { type: "enabled", budget_tokens: 3000 } };
  const add = <T extends { providerOptions?: Record<string, unknown> | undefined }>(input: T): T => ({
    ...input,
    providerOptions: { ...input.providerOptions, ...thinking },
  });
  return {
    providerId: model.providerId,
    modelId: model.modelId,
    get emitter() {
      return model.emitter;
    },
    create: (input) => model.create(add(input)),
    createStream: (input) => model.createStream(add(input)),
    createStructure: (input) => model.createStructure(add(input)),
  };
}

describe.skipIf(!hasSharedFixtures)(
  hasSharedFixtures
    ? "createRouter: a conversation moved between Anthropic, Responses and OpenAI chat, on recorded traffic"
    : missingFixturesMessage,
  () => {
    if (!hasSharedFixtures) return;
    let anthropic: LoopbackServer;
    let responses: LoopbackServer;
    let chat: LoopbackServer;
    beforeAll(async () => {
      [anthropic, responses, chat] = await Promise.all([
        startLoopbackServer(),
        startLoopbackServer(),
        startLoopbackServer(),
      ]);
    });
    afterAll(async () => {
      await Promise.all([anthropic.close(), responses.close(), chat.close()]);
    });

    const tools: ToolDefinition[] = [
      { name: "get_user_country", inputSchema: { type: "object", properties: {} } },
      {
        name: "get_weather",
        inputSchema: { type: "object", properties: { city: { type: "string" } }, required: ["city"] },
      },
    ];
    const overloaded = recorded("anthropic/messages-error-529-overloaded.issue-anthropic-sdk-typescript-616.json", 529);
    const serverError: Handler = (_request, response) =>
      sendJSON(response, 500, readOwnOpenAIFixture("error-500-server.json"));

    /** What each provider issued that only it can read back. */
    const anthropicSignature = (
      JSON.parse(readFixture("anthropic/messages-nonstream-thinking-tool-use-round-trip.0.json")) as {
        content: { type: string; signature?: string }[];
      }
    ).content.find((block) => block.type === "thinking")!.signature!;
    const responsesReasoning = (
      JSON.parse(readFixture("openai-responses/responses-nonstream-reasoning-tool-call-round-trip.0.json")) as {
        output: { type: string; id: string; encrypted_content?: string }[];
      }
    ).output.find((item) => item.type === "reasoning")!;

    /** A Messages API body Anthropic takes: its own signatures only, every tool_use answered in the next user turn. */
    function expectValidAnthropicRequest(body: { messages: { role: string; content: unknown }[] }): void {
      const text = JSON.stringify(body);
      expect(text).not.toContain(responsesReasoning.id);
      expect(text).not.toContain(responsesReasoning.encrypted_content);
      body.messages.forEach((message, index) => {
        if (index > 0) expect(message.role).not.toBe(body.messages[index - 1]!.role);
        const blocks = Array.isArray(message.content) ? (message.content as Record<string, unknown>[]) : [];
        for (const block of blocks) {
          if (block.type === "thinking") expect(block.signature).toBe(anthropicSignature);
          expect(block.type).not.toBe("redacted_thinking");
        }
        const toolUses = blocks.filter((block) => block.type === "tool_use").map((block) => block.id);
        if (toolUses.length === 0) return;
        const next = body.messages[index + 1]!.content as Record<string, unknown>[];
        expect(next.filter((block) => block.type === "tool_result").map((block) => block.tool_use_id)).toEqual(
          toolUses,
        );
      });
    }

    /** A Responses input it takes: its own reasoning items only, each followed by its item; every call answered. */
    function expectValidResponsesRequest(body: { input: Record<string, unknown>[] }): void {
      expect(JSON.stringify(body)).not.toContain(anthropicSignature);
      body.input.forEach((item, index) => {
        if (item.type === "reasoning") {
          expect(item).toMatchObject({
            id: responsesReasoning.id,
            encrypted_content: responsesReasoning.encrypted_content,
          });
          expect(body.input[index + 1]?.type).toBe("function_call");
        }
        if (item.type === "function_call") {
          expect(
            body.input.some((other) => other.type === "function_call_output" && other.call_id === item.call_id),
          ).toBe(true);
        }
      });
    }

    /** A chat.completions body: no reasoning, every assistant tool call answered by a tool message. */
    function expectValidChatRequest(body: { messages: Record<string, unknown>[] }): void {
      const text = JSON.stringify(body);
      for (const opaque of [anthropicSignature, responsesReasoning.id, responsesReasoning.encrypted_content!]) {
        expect(text).not.toContain(opaque);
      }
      body.messages.forEach((message, index) => {
        expect(message).not.toHaveProperty("reasoning_content");
        expect(message).not.toHaveProperty("reasoning");
        const calls = (message.tool_calls as { id: string }[] | undefined) ?? [];
        const answers = body.messages.slice(index + 1, index + 1 + calls.length).map((each) => each.tool_call_id);
        expect(answers).toEqual(calls.map((call) => call.id));
      });
    }

    it("should keep every request valid for its provider, leave out only what another provider issued, and never change the caller's messages", async () => {
      const model = createRouter(
        [
          withThinking(
            new AnthropicChatModel("claude-sonnet-4-20250514", {
              baseURL: anthropic.url,
              apiKey,
              retry: { maxRetries: 0 },
            }),
          ),
          new OpenAIResponsesChatModel("gpt-5-mini", {
            baseURL: `${responses.url}/v1`,
            apiKey,
            store: false,
            retry: { maxRetries: 0 },
          }),
          new OpenAIChatModel("gpt-4o", { baseURL: `${chat.url}/v1`, apiKey, retry: { maxRetries: 0 } }),
        ],
        { cooldownMs: 0 },
      );
      const warnings: WarningEvent[] = [];
      model.emitter.on("warning", (warning) => warnings.push(warning));
      const ask = async (messages: Message[]) => {
        const before = structuredClone(messages);
        const output = await model.create({ messages, tools });
        expect(messages).toEqual(before);
        return output;
      };
      const messages: Message[] = [{ role: "user", content: "What is the largest city in the user country?" }];

      // 1. Anthropic thinks (signed) and calls a tool.
      inTurn(anthropic, recorded("anthropic/messages-nonstream-thinking-tool-use-round-trip.0.json"));
      const first = await ask(messages);
      expect(first.meta.model.providerId).toBe("anthropic");
      const country = first.toolCalls[0]!;
      messages.push(first.message, { role: "tool", toolCallId: country.id, toolName: country.name, content: "Mexico" });

      // 2. Anthropic is overloaded: Responses answers, sent none of Anthropic's thinking.
      inTurn(anthropic, overloaded);
      inTurn(responses, recorded("openai-responses/responses-nonstream-reasoning-tool-call-round-trip.0.json"));
      const second = await ask(messages);
      expect(second.meta.model).toEqual({ providerId: "openai", modelId: "gpt-5-mini" });
      expect(warnings.map((warning) => warning.code)).toEqual(["reasoning-dropped"]);
      expectValidResponsesRequest(responses.requests.at(-1)!.json);
      // The visible text of Anthropic's turn and its tool call went along.
      expect(JSON.stringify(responses.requests.at(-1)!.json)).toContain("find the largest city in your country");
      const weather = second.toolCalls[0]!;
      messages.push(second.message, {
        role: "tool",
        toolCallId: weather.id,
        toolName: weather.name,
        content: "Sunny, 22C in Mexico City",
      });

      // 3. Both fail: OpenAI chat answers, sent no reasoning of either, every call paired with its result.
      inTurn(anthropic, overloaded);
      inTurn(responses, serverError);
      inTurn(chat, recorded("openai/chat-nonstream-text.json"));
      const third = await ask(messages);
      expect(third.meta.model).toEqual({ providerId: "openai", modelId: "gpt-4o" });
      expectValidChatRequest(chat.requests.at(-1)!.json);
      messages.push(third.message, { role: "user", content: "Thanks. And its population?" });

      // 4. Back to Anthropic: its own signed thinking goes back as it came, Responses' reasoning does not.
      warnings.length = 0;
      inTurn(anthropic, recorded("anthropic/messages-nonstream-thinking-tool-use-round-trip.1.json"));
      const fourth = await ask(messages);
      expect(fourth.meta.model.providerId).toBe("anthropic");
      const anthropicBody = anthropic.requests.at(-1)!.json;
      expectValidAnthropicRequest(anthropicBody);
      expect(JSON.stringify(anthropicBody)).toContain(anthropicSignature);
      expect(warnings.map((warning) => warning.code)).toEqual(["reasoning-dropped"]);
      messages.push(fourth.message, { role: "user", content: "And the weather there tomorrow?" });

      // 5. Back to Responses: its own reasoning item goes back, before its function call.
      inTurn(anthropic, overloaded);
      inTurn(responses, recorded("openai-responses/responses-nonstream-reasoning-tool-call-round-trip.1.json"));
      const fifth = await ask(messages);
      expect(fifth.meta.model.modelId).toBe("gpt-5-mini");
      const responsesBody = responses.requests.at(-1)!.json as { input: Record<string, unknown>[] };
      expectValidResponsesRequest(responsesBody);
      expect(responsesBody.input.filter((item) => item.type === "reasoning")).toHaveLength(1);
    });

    it("should leave Anthropic's signed thinking out of what a Claude member on Bedrock is sent, which it would send otherwise", async () => {
      const bedrock: BedrockLoopback = await startBedrockLoopback();
      try {
        const bedrockReply = () =>
          bedrock.server.handle((_request, response) =>
            sendHttp2JSON(response, 200, JSON.parse(readFixture("bedrock/converse-nonstream-text.json"))),
          );
        const claudeOnBedrock = () =>
          bedrock.model("anthropic.claude-sonnet-4-20250514-v1:0", { retry: { maxRetries: 0 } });
        const direct = withThinking(
          new AnthropicChatModel("claude-sonnet-4-20250514", {
            baseURL: anthropic.url,
            apiKey,
            retry: { maxRetries: 0 },
          }),
        );
        const model = createRouter([direct, claudeOnBedrock()], { cooldownMs: 0 });
        const warnings: WarningEvent[] = [];
        model.emitter.on("warning", (warning) => warnings.push(warning));
        const messages: Message[] = [{ role: "user", content: "What is the largest city in the user country?" }];
        inTurn(anthropic, recorded("anthropic/messages-nonstream-thinking-tool-use-round-trip.0.json"));
        const first = await model.create({ messages, tools });
        const call = first.toolCalls[0]!;
        messages.push(first.message, { role: "tool", toolCallId: call.id, toolName: call.name, content: "Mexico" });

        inTurn(anthropic, overloaded);
        bedrockReply();
        const second = await model.create({ messages, tools });
        expect(second.meta.model.providerId).toBe("bedrock");
        const sent = bedrock.server.requests.at(-1)!.body;
        expect(sent).not.toContain(anthropicSignature);
        expect(sent).not.toContain("reasoningContent");
        expect(sent).toContain("find the largest city in your country");
        expect(sent).toContain(call.id);
        expect(warnings.map((warning) => warning.code)).toEqual(["reasoning-dropped"]);

        // Sent by the Bedrock adapter alone, the same conversation carries Anthropic's signature.
        bedrockReply();
        await claudeOnBedrock().create({ messages, tools });
        expect(bedrock.server.requests.at(-1)!.body).toContain(anthropicSignature);
      } finally {
        await bedrock.close();
      }
    });
  },
);
