import { describe, expect, it } from "vitest";
import { AzureOpenAIChatModel } from "../../../src/adapters/azure-openai/index.js";
import { OpenAIChatModel } from "../../../src/adapters/openai/index.js";
import { ProviderError } from "../../../src/index.js";
import type { ChatModel } from "../../../src/index.js";
import { useLoopbackServer } from "../../support/loopback-server.js";
import { callModes, settleCall, user } from "../../support/run-modes.js";
import { hasSharedFixtures, missingFixturesMessage, readFixture } from "../../support/shared-fixtures.js";

const chunk = (body: object) =>
  `data: ${JSON.stringify({ id: "c", object: "chat.completion.chunk", created: 1, model: "m", ...body })}\n\n`;
const text = (content: string) => chunk({ choices: [{ index: 0, delta: { content }, finish_reason: null }] });

describe("OpenAI-compatible servers' own error reports", () => {
  const server = useLoopbackServer();
  const models = (): [string, ChatModel][] => [
    ["openai", new OpenAIChatModel("m", { baseURL: `${server.url}/v1`, apiKey: "sk-test-reports" })],
    ["azure", new AzureOpenAIChatModel("m", { endpoint: server.url, apiKey: "azure-test-reports" })],
  ];
  const respond = (contentType: string, body: string) =>
    server.handle((_request, response) => {
      response.writeHead(200, { "content-type": contentType });
      response.end(body);
    });

  it.each([
    {
      shape: "vLLM's error object",
      report: { object: "error", message: "prompt is too long", type: "BadRequestError", code: 400 },
      status: 400,
    },
    {
      shape: "vLLM's error object without a code",
      report: { object: "error", message: "engine dead", type: "InternalServerError" },
      status: undefined,
    },
  ])(
    "should raise $shape mid-stream as a ProviderError with the server's message, never retried",
    async ({ report, status }) => {
      respond("text/event-stream", `${text("Hel")}data: ${JSON.stringify(report)}\n\ndata: [DONE]\n\n`);
      for (const [name, model] of models()) {
        server.requests.length = 0;
        const { error, output, chunks } = await settleCall(model, { messages: [user("hi")] }, "createStream");
        expect(output, name).toBeUndefined();
        expect(ProviderError.isInstance(error), name).toBe(true);
        expect(error!.message).toContain(report.message);
        expect(error!.message).not.toContain("ended before its final chunk");
        expect(error).toMatchObject({ statusCode: status, reason: status === 400 ? "invalid-request" : "server" });
        expect(error!.partialOutput?.text).toBe("Hel");
        expect(chunks.length).toBeGreaterThan(0);
        expect(server.requests, name).toHaveLength(1);
      }
    },
  );

  it("should raise vLLM's error object as the stream's first chunk with the server's message, not as a network fault", async () => {
    respond(
      "text/event-stream",
      `data: ${JSON.stringify({ object: "error", message: "model overloaded", code: 503 })}\n\n`,
    );
    for (const [name, model] of models()) {
      const { error } = await settleCall(model, { messages: [user("hi")], maxRetries: 0 }, "createStream");
      expect(ProviderError.isInstance(error), name).toBe(true);
      expect(error).toMatchObject({ statusCode: 503, reason: "server" });
      expect(error!.message).toContain("model overloaded");
    }
  });

  describe.each(callModes)("a 200 that is an error report, through %s", (mode) => {
    it.each([
      {
        shape: "OpenAI's envelope",
        body: { error: { message: "upstream timed out", type: "server_error", code: null } },
      },
      {
        shape: "an envelope with a numeric code",
        body: { error: { message: "Rate limit exceeded: free-models-per-day", code: 429 } },
      },
      { shape: "vLLM's error object", body: { object: "error", message: "invalid sampling params", code: 400 } },
    ])("should keep the server's message from $shape", async ({ body }) => {
      const message = "message" in body ? body.message : body.error.message;
      const wire = mode === "create" ? JSON.stringify(body) : `data: ${JSON.stringify(body)}\n\ndata: [DONE]\n\n`;
      respond(mode === "create" ? "application/json" : "text/event-stream", wire);
      for (const [name, model] of models()) {
        const { error } = await settleCall(model, { messages: [user("hi")], maxRetries: 0 }, mode);
        expect(ProviderError.isInstance(error), name).toBe(true);
        expect(error!.message).toContain(message);
        expect(error!.message).not.toContain("(object)");
      }
    });
  });

  describe.skipIf(!hasSharedFixtures)(
    `OpenRouter's recorded stream${hasSharedFixtures ? "" : ` (${missingFixturesMessage})`}`,
    () => {
      it("should keep finish reason 'length' in the partial output of a stream that errors after it", async () => {
        const sse = hasSharedFixtures
          ? readFixture("extra/openai/compat-openrouter-stream-length-then-error-chunk.sse")
          : "";
        respond("text/event-stream", sse);
        const model = new OpenAIChatModel("minimax/minimax-m2:free", {
          baseURL: `${server.url}/v1`,
          apiKey: "sk-or-test",
        });
        const { error, chunks } = await settleCall(model, { messages: [user("hello")] }, "createStream");
        expect(ProviderError.isInstance(error)).toBe(true);
        expect(error!.message).toContain("Token limit reached");
        expect(error).toMatchObject({ statusCode: 400, isRetryable: false });
        expect(error!.partialOutput).toMatchObject({ finishReason: "length" });
        expect(error!.partialOutput!.reasoning).not.toBe("");
        expect(chunks.some((next) => next.type === "reasoning-delta")).toBe(true);
        expect(server.requests).toHaveLength(1);
      });
    },
  );
});
