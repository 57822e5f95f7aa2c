import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { OllamaChatModel } from "../../src/adapters/ollama/index.js";
import type { OllamaChatModelOptions } from "../../src/adapters/ollama/index.js";
import { ProviderError } from "../../src/index.js";
import type { ChatModelInput } from "../../src/index.js";
import type { Handler, LoopbackServer } from "../support/loopback-server.js";
import { startLoopbackServer } from "../support/loopback-server.js";
import { callModes, settleCall } from "../support/run-modes.js";
import { replyWith } from "../adapters/ollama/ollama-harness.js";
import { answerRaw, htmlPage, neverAnswer, perPrompt, resetBeforeResponse, resetMidBody } from "./fault-server.js";
import {
  expectAbortMidStream,
  expectPartialOutputError,
  expectRetriedThenAnswered,
  textOf,
  type FaultSubject,
} from "./fault-expectations.js";

const ndjson = "application/x-ndjson";
const line = (content: string, done = false) =>
  `${JSON.stringify({ model: "llama3.2", created_at: "2025-01-01T00:00:00Z", message: { role: "assistant", content }, done, ...(done ? { done_reason: "stop", prompt_eval_count: 3, eval_count: 2 } : {}) })}\n`;
const firstText = line("Hel");

const ok: Handler = replyWith({
  model: "llama3.2",
  created_at: "2025-01-01T00:00:00Z",
  message: { role: "assistant", content: "Hello there" },
  done: true,
  done_reason: "stop",
  prompt_eval_count: 3,
  eval_count: 2,
});

let server: LoopbackServer;
beforeEach(async () => {
  server = await startLoopbackServer();
});
afterEach(async () => {
  await server.close();
});

function model(options: OllamaChatModelOptions = {}): OllamaChatModel {
  return new OllamaChatModel("llama3.2", {
    host: server.url,
    retry: { maxRetries: 2, initialDelayMs: 1, maxDelayMs: 5 },
    ...options,
  });
}

const input = (extra: Partial<ChatModelInput> = {}): ChatModelInput => ({
  messages: [{ role: "user", content: "hi" }],
  ...extra,
});
const subject = (): FaultSubject => ({ server, model, input, ok });

describe("OllamaChatModel under faults", () => {
  describe.each(callModes)("%s", (mode) => {
    it.each([
      {
        fault: "a 429 with Retry-After",
        handler: answerRaw(429, "application/json", '{"error":"too many requests"}', { "retry-after": "0" }),
      },
      {
        fault: "a 503 (server busy)",
        handler: answerRaw(503, "application/json", '{"error":"server busy, please try again"}'),
      },
      { fault: "a connection reset before the response", handler: resetBeforeResponse },
      { fault: "an empty JSON body", handler: answerRaw(200, "application/json", "") },
      { fault: "a 502 HTML page", handler: answerRaw(502, "text/html", htmlPage) },
    ])("should retry $fault and succeed with the second request", async ({ handler }) => {
      await expectRetriedThenAnswered(subject(), handler, mode);
    });

    // A stream's HTML page is refused before it is read as a stream (issue 23), as create's is.
    it("should not retry a 200 with an HTML page (a misconfiguration), and say to check the host", async () => {
      server.handle(answerRaw(200, "text/html", htmlPage));
      const { error, output } = await settleCall(model(), input(), mode);
      expect(output).toBeUndefined();
      expect(error).toMatchObject({ name: "ProviderError", reason: "server", isRetryable: false });
      expect(error!.message).toMatch(
        mode === "create"
          ? "the server answered with an HTML page, not Ollama's JSON"
          : "the server answered a stream request with an HTML page (text/html",
      );
      expect(error!.message).toContain("Check that host points at the Ollama server itself");
      expect(server.requests).toHaveLength(1);
    });

    it("should honour the Retry-After a 429 or 503 carries (the SDK's error drops it), and fail at once past the cap", async () => {
      const subject = model();
      const delays: number[] = [];
      subject.emitter.on("retry", ({ delayMs }) => delays.push(delayMs));
      perPrompt(server, answerRaw(503, "application/json", '{"error":"server busy"}', { "retry-after-ms": "40" }), ok);
      expect((await settleCall(subject, input(), mode)).output?.text).toBe("Hello there");
      expect(delays).toEqual([40]);
      expect(server.requests).toHaveLength(2);
      server.requests.length = 0;
      server.handle(answerRaw(429, "application/json", '{"error":"too many requests"}', { "retry-after": "120" }));
      const { error } = await settleCall(subject, input(), mode);
      expect(error).toMatchObject({ statusCode: 429, isRetryable: false, retryAfterMs: 120_000 });
      expect(server.requests).toHaveLength(1);
    });

    it("should read an error page's text into the error, with nothing written to the console", async () => {
      const log = vi.spyOn(console, "log").mockImplementation(() => undefined);
      try {
        server.handle(answerRaw(400, "text/plain", "model is required"));
        const { error } = await settleCall(model(), input(), mode);
        expect(error).toMatchObject({ statusCode: 400, isRetryable: false });
        expect(error?.message).toContain("model is required");
        expect(log).not.toHaveBeenCalled();
      } finally {
        log.mockRestore();
      }
    });

    it.each([
      { fault: "a connection reset", handler: resetBeforeResponse, reason: "network" },
      { fault: "an empty JSON body", handler: answerRaw(200, "application/json", ""), reason: /server|network/ },
    ])(
      "should end $fault every time in a typed ProviderError after maxRetries + 1 requests",
      async ({ handler, reason }) => {
        server.handle(handler);
        const { error, output } = await settleCall(model(), input(), mode);
        expect(output).toBeUndefined();
        expect(ProviderError.isInstance(error)).toBe(true);
        expect(error!.reason).toMatch(reason);
        expect(server.requests).toHaveLength(3);
      },
    );

    it("should end a request the server never answers with the per-call timeout, and with the signal", async () => {
      server.handle(neverAnswer);
      expect((await settleCall(model(), input({ timeout: 100 }), mode)).error?.name).toBe("TimeoutError");
      const controller = new AbortController();
      setTimeout(() => controller.abort(), 50);
      expect((await settleCall(model(), input({ signal: controller.signal }), mode)).error?.name).toBe("AbortError");
      expect(server.requests).toHaveLength(2);
    });
  });

  describe("create", () => {
    it("should retry a connection reset in the middle of the JSON body and succeed", async () => {
      await expectRetriedThenAnswered(
        subject(),
        resetMidBody("application/json", '{"model":"llama3.2","message":{'),
        "create",
      );
    });
  });

  describe("createStream", () => {
    it.each([
      { fault: "a connection reset", handler: resetMidBody(ndjson, firstText), reason: "network" },
      {
        fault: "a stream that stops without its done line",
        handler: answerRaw(200, ndjson, firstText + line("lo")),
        text: "Hello",
        reason: "network",
      },
      {
        fault: "a malformed NDJSON line",
        handler: answerRaw(200, ndjson, `${firstText}{"message": {"content": "lo"\n${line("", true)}`),
        reason: "server",
      },
      {
        fault: "an error line",
        handler: answerRaw(200, ndjson, `${firstText}{"error":"model runner crashed"}\n`),
        reason: "server",
      },
      {
        fault: "a line that is JSON but not an object",
        handler: answerRaw(200, ndjson, `${firstText}0\n${line("", true)}`),
        reason: "server",
      },
    ])(
      "should end $fault after text was delivered in a ProviderError carrying the partial output, without retrying",
      async ({ handler, reason, text = "Hel" }) => {
        await expectPartialOutputError(subject(), handler, reason, text);
      },
    );

    it.each([
      { fault: "a malformed NDJSON line", handler: answerRaw(200, ndjson, `{not json\n${line("", true)}`) },
      { fault: "a stream with no done line", handler: answerRaw(200, ndjson, "") },
    ])("should retry $fault before any text was delivered, and succeed", async ({ handler }) => {
      expect(textOf(await expectRetriedThenAnswered(subject(), handler, "createStream"))).toBe("Hello there");
    });

    it.each([
      {
        how: "a line it cannot read ends the stream",
        after: `{"message": {"role": "assistant", "content": 7}, "done": false}\n`,
      },
      { how: "its consumer stops reading", after: "" },
    ])("should let go of the connection when $how mid-stream", async ({ after }) => {
      let closed = false;
      server.handle((_request, response) => {
        response.on("close", () => (closed = true));
        response.writeHead(200, { "content-type": ndjson });
        // The rest never comes: only the client can end this response.
        response.write(firstText + after);
      });
      const stream = model().createStream(input());
      const read = (async () => {
        for await (const chunk of stream) if (chunk.type === "text-delta" && after === "") break;
      })();
      if (after === "") await read;
      else await expect(read).rejects.toBeInstanceOf(ProviderError);
      await vi.waitFor(() => expect(closed).toBe(true), { timeout: 1000 });
    });

    it("should end a stream aborted mid-body with AbortError, never with its partial text as the answer", async () => {
      await expectAbortMidStream(subject(), ndjson, firstText, "Hel");
    });
  });
});
