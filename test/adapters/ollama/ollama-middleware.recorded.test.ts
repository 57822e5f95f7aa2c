// Middleware around a real adapter: the Ollama SDK against a loopback server replaying recorded traffic.
import { describe, expect, it } from "vitest";
import {
  ProviderError,
  defineTool,
  extractReasoningMiddleware,
  wrapChatModel,
  type ChatModelMiddleware,
  type MiddlewareContext,
} from "../../../src/index.js";
import { useLoopbackServer } from "../../support/loopback-server.js";
import { callModes, runCall, settleCall, user } from "../../support/run-modes.js";
import { hasSharedFixtures, missingFixturesMessage, readJSONFixture } from "../../support/shared-fixtures.js";
import { createOllamaModel, replyError, replyWith } from "./ollama-harness.js";

const weatherTool = defineTool({
  name: "get_weather",
  description: "Get the current weather for a city",
  inputSchema: {
    type: "object",
    properties: { city: { type: "string", description: "The name of the city" } },
    required: ["city"],
  },
});

const fixture = (name: string) => readJSONFixture<Record<string, any>>(`ollama/${name}`);

describe.skipIf(!hasSharedFixtures)(
  hasSharedFixtures
    ? "Middleware on OllamaChatModel (recorded traffic)"
    : `Middleware on Ollama: ${missingFixturesMessage}`,
  () => {
    const server = useLoopbackServer();

    describe.each(callModes)("through %s", (mode) => {
      it("should send what transformInput wrote and let an audit see the recorded reply", async () => {
        server.handle(replyWith(fixture("api-chat-nonstream-one-tool-call.docs.json")));
        const audited: { context: MiddlewareContext; names: string[] }[] = [];
        const auditLog: ChatModelMiddleware = {
          async wrapCreate({ context, next }) {
            const output = await next();
            audited.push({ context, names: (output.toolCalls ?? []).map((call) => call.name) });
            return output;
          },
          async *wrapStream({ context, next }) {
            const names: string[] = [];
            for await (const chunk of next()) {
              if (chunk.type === "tool-call") names.push(chunk.toolCall.name);
              yield chunk;
            }
            audited.push({ context, names });
          },
        };
        const system: ChatModelMiddleware = {
          transformInput: (input) => ({
            ...input,
            messages: [{ role: "system", content: "Be brief." }, ...input.messages],
          }),
        };
        const model = createOllamaModel(server.url, { middleware: [auditLog, system] });
        const { output } = await runCall(
          model,
          { messages: [user("What is the weather in Tokyo?")], tools: [weatherTool] },
          mode,
        );
        expect(server.requests[0]!.json.messages).toEqual([
          { role: "system", content: "Be brief." },
          { role: "user", content: "What is the weather in Tokyo?" },
        ]);
        expect(output.toolCalls[0]).toMatchObject({ name: "get_weather", args: { city: "Tokyo" } });
        expect(audited).toEqual([
          {
            context: expect.objectContaining({ providerId: "ollama", modelId: "llama3.2", attempt: 1 }),
            names: ["get_weather"],
          },
        ]);
      });

      it("should run once per request: a recorded 503 retried passes through it twice", async () => {
        let requests = 0;
        server.handle((request, reply) => {
          requests++;
          if (requests === 1) return replyError(503, { error: "server busy" })(request, reply);
          return replyWith(fixture("api-chat-nonstream-text-after-tool-result.docs.json"))(request, reply);
        });
        const attempts: number[] = [];
        const model = createOllamaModel(server.url, {
          retry: { maxRetries: 1, initialDelayMs: 0, maxDelayMs: 0 },
          middleware: [{ transformInput: (input, context) => (attempts.push(context.attempt), input) }],
        });
        const { output } = await runCall(model, { messages: [user("Weather in Toronto?")] }, mode);
        expect(output.text).toBe("The current temperature in Toronto is 11°C.");
        expect(attempts).toEqual([1, 2]);
      });

      it("should refuse a reply through a guardrail without the caller seeing it", async () => {
        server.handle(replyWith(fixture("api-chat-nonstream-text-after-tool-result.docs.json")));
        const guard: ChatModelMiddleware = {
          async wrapCreate({ next }) {
            const output = await next();
            if (output.text?.includes("Toronto"))
              throw new ProviderError("The reply named a city it must not.", {
                reason: "content-policy",
                isRetryable: false,
              });
            return output;
          },
          async *wrapStream({ next }) {
            let text = "";
            const held = [];
            for await (const chunk of next()) {
              if (chunk.type === "text-delta") text += chunk.text;
              held.push(chunk);
            }
            if (text.includes("Toronto"))
              throw new ProviderError("The reply named a city it must not.", {
                reason: "content-policy",
                isRetryable: false,
              });
            yield* held;
          },
        };
        const model = wrapChatModel(createOllamaModel(server.url), guard);
        const { error, chunks } = await settleCall(model, { messages: [user("Weather in Toronto?")] }, mode);
        expect(ProviderError.isInstance(error)).toBe(true);
        expect(error!.reason).toBe("content-policy");
        expect(chunks.filter((chunk) => chunk.type === "text-delta")).toEqual([]);
        expect(server.requests).toHaveLength(1);
      });

      it("should answer in the provider's place: nothing reaches the server", async () => {
        const mock: ChatModelMiddleware = {
          wrapCreate: async () => ({ text: "mocked", finishReason: "stop" }),
          async *wrapStream() {
            yield { type: "text-delta", text: "mocked" };
            yield { type: "finish", finishReason: "stop" };
          },
        };
        const model = createOllamaModel(server.url, { middleware: [mock] });
        const { output } = await runCall(model, { messages: [user("Hi")] }, mode);
        expect(output.text).toBe("mocked");
        expect(server.requests).toHaveLength(0);
      });

      it("should extract a <think> block from the recorded reply's content", async () => {
        const recorded = fixture("api-chat-nonstream-text-after-tool-result.docs.json");
        const content = `<think>Toronto was asked; the tool said 11.</think>\n${recorded.message.content}`;
        server.handle(replyWith({ ...recorded, message: { ...recorded.message, content } }));
        const model = wrapChatModel(createOllamaModel(server.url), extractReasoningMiddleware());
        const { output } = await runCall(model, { messages: [user("Weather in Toronto?")] }, mode);
        expect(output.text).toBe("The current temperature in Toronto is 11°C.");
        expect(output.reasoning).toBe("Toronto was asked; the tool said 11.");
      });
    });
  },
);
