import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { AnthropicChatModel } from "../../src/adapters/anthropic/index.js";
import { GoogleChatModel } from "../../src/adapters/google/index.js";
import { OpenAIChatModel } from "../../src/adapters/openai/index.js";
import type { ChatModelLike, Message, ToolDefinition, WarningEvent } from "../../src/index.js";
import { createRouter } from "../../src/index.js";
import { sendJSON, startLoopbackServer, type Handler, type LoopbackServer } from "../support/loopback-server.js";
import { readOwnOpenAIFixture } from "../support/openai-wire.js";
import { hasSharedFixtures, missingFixturesMessage, readFixture } from "../support/shared-fixtures.js";

const recorded =
  (relative: string, status = 200): Handler =>
  (_request, response) =>
    sendJSON(response, status, readFixture(relative));

const overloaded: Handler = (_request, response) =>
  sendJSON(response, 503, readFixture("gemini/generate-error-503-high-demand.issue-continue-10639.json"));

describe.skipIf(!hasSharedFixtures)(
  hasSharedFixtures
    ? "createRouter: a Gemini conversation moved to another provider, on recorded traffic"
    : missingFixturesMessage,
  () => {
    if (!hasSharedFixtures) return;
    let gemini: LoopbackServer;
    let other: LoopbackServer;
    beforeAll(async () => {
      [gemini, other] = await Promise.all([startLoopbackServer(), startLoopbackServer()]);
    });
    afterAll(async () => {
      await Promise.all([gemini.close(), other.close()]);
    });

    const tools: ToolDefinition[] = [
      {
        name: "get_weather",
        description: "Get the current weather for a city.",
        inputSchema: { type: "object", properties: { city: { type: "string" } }, required: ["city"] },
      },
    ];
    const googleMember = () =>
      new GoogleChatModel("gemini-2.5-flash", { baseURL: gemini.url, apiKey: "AIza-test", retry: { maxRetries: 0 } });
    // An OpenAI-compatible member that sends reasoning back (as Gemini's own compatible endpoint wants):
    // left to itself, it would send a Gemini thought signature as `extra_content`.
    const chatMember = () =>
      new OpenAIChatModel("gpt-4o", {
        baseURL: `${other.url}/v1`,
        apiKey: "sk-test",
        sendReasoningContent: true,
        retry: { maxRetries: 0 },
      });
    const anthropicMember = () =>
      new AnthropicChatModel("claude-sonnet-4-20250514", {
        baseURL: other.url,
        apiKey: "sk-ant-test",
        retry: { maxRetries: 0 },
      });

    /** Every thought signature Gemini issued in a recorded reply. */
    function signaturesOf(relative: string): string[] {
      const text = readFixture(relative);
      return [...text.matchAll(/"thoughtSignature":\s*"([^"]+)"/g)].map((match) => match[1]!);
    }

    async function moveConversation(
      member: ChatModelLike,
      firstReply: string,
      otherReply: Handler,
      followUp: (first: Message) => Message[],
    ) {
      const model = createRouter([googleMember(), member], { cooldownMs: 0 });
      const warnings: WarningEvent[] = [];
      model.emitter.on("warning", (warning) => warnings.push(warning));
      gemini.handle(recorded(firstReply));
      const messages: Message[] = [{ role: "user", content: "What's the weather in Paris?" }];
      const first = await model.create({ messages, tools });
      expect(first.meta.model.providerId).toBe("google");
      messages.push(...followUp(first.message));
      const before = structuredClone(messages);

      gemini.handle(overloaded);
      other.handle(otherReply);
      const second = await model.create({ messages, tools });
      expect(second.meta.model.providerId).toBe(member.providerId);
      expect(messages).toEqual(before);
      return { first, warnings, sent: JSON.stringify(other.requests.at(-1)!.json) };
    }

    const withWeather = (message: Message): Message[] => {
      const call = (message.content as { type: string; id: string; name: string }[]).find(
        (part) => part.type === "tool-call",
      )!;
      return [message, { role: "tool", toolCallId: call.id, toolName: call.name, content: "Sunny, 22C" }];
    };

    it("should leave a Gemini tool call's thought signature out of what an OpenAI chat member is sent, keeping the call", async () => {
      const fixture = "gemini/generate-nonstream-function-call-round-trip-mode-auto.0.json";
      const signatures = signaturesOf(fixture);
      expect(signatures.length).toBeGreaterThan(0);
      const { first, warnings, sent } = await moveConversation(
        chatMember(),
        fixture,
        (_request, response) => sendJSON(response, 200, readOwnOpenAIFixture("chat-text-reasoning-usage.json")),
        withWeather,
      );
      expect(first.toolCalls[0]!.signature).toBe(signatures[0]);
      for (const signature of signatures) expect(sent).not.toContain(signature);
      expect(sent).not.toContain("thought_signature");
      expect(sent).toContain('"name":"get_weather"');
      expect(sent).toContain(first.toolCalls[0]!.id);
      expect(warnings.map((warning) => warning.code)).toEqual(["reasoning-dropped"]);

      // Sent by the OpenAI chat adapter alone, the same conversation carries the signature.
      other.handle((_request, response) =>
        sendJSON(response, 200, readOwnOpenAIFixture("chat-text-reasoning-usage.json")),
      );
      await chatMember().create({ messages: [{ role: "user", content: "x" }, ...withWeather(first.message)], tools });
      expect(JSON.stringify(other.requests.at(-1)!.json)).toContain(signatures[0]);
    });

    it("should leave Gemini's signed thoughts out of what an Anthropic member is sent, keeping the visible text", async () => {
      const fixture = "gemini/generate-nonstream-thought-parts-round-trip.0.json";
      const signatures = signaturesOf(fixture);
      expect(signatures.length).toBeGreaterThan(0);
      const { first, warnings, sent } = await moveConversation(
        anthropicMember(),
        fixture,
        recorded("anthropic/messages-nonstream-text.json"),
        (message) => [message, { role: "user", content: "Thanks. Shorter, please." }],
      );
      const parts = first.message.content as { type: string; signature?: string }[];
      expect(parts.some((part) => part.signature !== undefined)).toBe(true);
      for (const signature of signatures) expect(sent).not.toContain(signature);
      expect(sent).toContain(JSON.stringify(first.text.slice(0, 40)).slice(1, -1));
      expect(warnings.map((warning) => warning.code)).toEqual(["reasoning-dropped"]);
    });
  },
);
