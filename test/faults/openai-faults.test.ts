import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { OpenAIChatModel } from "../../src/adapters/openai/index.js";
import type { OpenAIChatModelOptions } from "../../src/adapters/openai/index.js";
import { ProviderError } from "../../src/index.js";
import type { ChatModelInput } from "../../src/index.js";
import type { Handler, LoopbackServer } from "../support/loopback-server.js";
import { sendJSON, startLoopbackServer } from "../support/loopback-server.js";
import { readOwnOpenAIFixture, textReplyHandler } from "../support/openai-wire.js";
import { callModes, settleCall } from "../support/run-modes.js";
import { answerRaw, htmlPage, neverAnswer, requestsFor, resetBeforeResponse, resetMidBody } from "./fault-server.js";
import {
  expectAbortMidStream,
  expectPartialOutputError,
  expectRetriedThenAnswered,
  textOf,
  type FaultSubject,
} from "./fault-expectations.js";

const sse = "text/event-stream";
const chunk = (delta: object, finishReason: string | null = null) =>
  `data: ${JSON.stringify({ id: "c", object: "chat.completion.chunk", created: 1, model: "m", choices: [{ index: 0, delta, finish_reason: finishReason }] })}\n\n`;
const firstText = chunk({ role: "assistant", content: "Hel" });

/** The normal reply ("Hello there"), as JSON for create and as SSE for createStream. */
const ok: Handler = textReplyHandler("Hello there");

let server: LoopbackServer;
beforeEach(async () => {
  server = await startLoopbackServer();
});
afterEach(async () => {
  await server.close();
});

function model(options: OpenAIChatModelOptions = {}): OpenAIChatModel {
  return new OpenAIChatModel("gpt-4o-mini", {
    baseURL: `${server.url}/v1`,
    apiKey: "sk-faults-0123456789",
    retry: { maxRetries: 2, initialDelayMs: 1, maxDelayMs: 5 },
    ...options,
  });
}

const input = (prompt = "hi", extra: Partial<ChatModelInput> = {}): ChatModelInput => ({
  messages: [{ role: "user", content: prompt }],
  ...extra,
});
const subject = (): FaultSubject => ({ server, model, input: (extra) => input("hi", extra), ok });

describe("OpenAIChatModel under faults", () => {
  it("should honour Retry-After in seconds, as an HTTP date, and retry-after-ms, then succeed with two requests, in both modes", async () => {
    const subject = model();
    const delays = new Map<string, number>();
    subject.emitter.on("retry", ({ input: call, delayMs }) => delays.set(String(call.messages[0]!.content), delayMs));
    const fail = (status: number, headers: Record<string, string>) =>
      answerRaw(status, "application/json", '{"error":{"message":"slow down"}}', headers);
    // An HTTP date has whole seconds: this one is 1 to 2 s ahead.
    // Three seconds out, cut to the second: 2–3 s from now, so a loaded machine still reads a future date.
    const inTwoSeconds = new Date(Math.floor((Date.now() + 3_000) / 1000) * 1000).toUTCString();
    const faults: Record<string, Handler> = {
      seconds: fail(429, { "retry-after": "1" }),
      date: fail(503, { "retry-after": inTwoSeconds }),
      milliseconds: fail(429, { "retry-after-ms": "40", "retry-after": "30" }),
    };
    const prompts = callModes.flatMap((mode) =>
      Object.keys(faults).map((fault) => ({ mode, fault, prompt: `${fault} ${mode}` })),
    );
    server.handle((request, response) => {
      const prompt = String(request.json.messages[0].content);
      return requestsFor(server, prompt) === 1
        ? faults[prompt.split(" ")[0]!]!(request, response)
        : ok(request, response);
    });
    const started = performance.now();
    const results = await Promise.all(
      prompts.map(async ({ mode, fault, prompt }) => ({
        fault,
        prompt,
        ...(await settleCall(subject, input(prompt), mode)),
        at: performance.now() - started,
      })),
    );
    for (const result of results) {
      expect(result.output?.text).toBe("Hello there");
      expect(requestsFor(server, result.prompt)).toBe(2);
      expect(result.at).toBeGreaterThanOrEqual(delays.get(result.prompt)! - 5);
      const delay = delays.get(result.prompt)!;
      if (result.fault === "seconds") expect(delay).toBe(1_000);
      if (result.fault === "milliseconds") expect(delay).toBe(40); // retry-after-ms wins over Retry-After
      if (result.fault === "date") expect(delay > 0 && delay <= 3_000, `date delay ${delay}`).toBe(true);
    }
  });

  describe.each(callModes)("%s", (mode) => {
    it("should fail at once, not retried, when Retry-After is past the cap, and say how long was asked", async () => {
      server.handle(answerRaw(429, "application/json", '{"error":{"message":"slow down"}}', { "retry-after": "120" }));
      const { error } = await settleCall(model(), input(), mode);
      expect(ProviderError.isInstance(error)).toBe(true);
      expect(error).toMatchObject({ statusCode: 429, isRetryable: false, retryAfterMs: 120_000 });
      expect(error!.message).toMatch(/asked to wait 120 s.*maxRetryAfterMs/);
      expect(server.requests).toHaveLength(1);
    });

    it("should not retry a 429 insufficient_quota", async () => {
      server.handle((_request, response) =>
        sendJSON(response, 429, readOwnOpenAIFixture("error-429-insufficient-quota.json")),
      );
      const { error } = await settleCall(model(), input(), mode);
      expect(error).toMatchObject({
        statusCode: 429,
        code: "insufficient_quota",
        isRetryable: false,
        reason: "rate-limit",
      });
      expect(server.requests).toHaveLength(1);
    });

    it("should retry a connection reset before the response and succeed", async () => {
      await expectRetriedThenAnswered(subject(), resetBeforeResponse, mode);
    });

    it("should give up on a connection reset every time with a retryable network ProviderError after maxRetries + 1 requests", async () => {
      server.handle(resetBeforeResponse);
      const { error } = await settleCall(model(), input(), mode);
      expect(error).toMatchObject({ name: "ProviderError", reason: "network", isRetryable: true });
      expect(server.requests).toHaveLength(3);
    });

    it.each([
      { fault: "an empty JSON body", handler: answerRaw(200, "application/json", "") },
      { fault: "an empty body without a content type", handler: answerRaw(200, undefined, "") },
      { fault: "a 502 HTML page", handler: answerRaw(502, "text/html", htmlPage) },
    ])("should retry $fault as a server error and succeed", async ({ handler }) => {
      await expectRetriedThenAnswered(subject(), handler, mode);
    });

    it("should end an empty body every time in a typed ProviderError, never an empty answer", async () => {
      server.handle(answerRaw(200, "application/json", ""));
      const { error, output } = await settleCall(model(), input(), mode);
      expect(output).toBeUndefined();
      expect(ProviderError.isInstance(error)).toBe(true);
      expect(error!.message).toMatch(
        /not a chat completion|not valid JSON|ended before its final chunk|not an event stream/,
      );
      expect(server.requests).toHaveLength(3);
    });

    // A stream's HTML page is refused before it is read as a stream (issue 23), as create's is.
    it.each([
      { fault: "an HTML page as text/html", handler: answerRaw(200, "text/html", htmlPage) },
      { fault: "an HTML page labelled application/json", handler: answerRaw(200, "application/json", htmlPage) },
    ])("should not retry a 200 with $fault (a misconfiguration), and say to check baseURL", async ({ handler }) => {
      server.handle(handler);
      const { error, output } = await settleCall(model(), input(), mode);
      expect(output).toBeUndefined();
      expect(error).toMatchObject({ name: "ProviderError", reason: "server", isRetryable: false });
      expect(error!.message).toMatch(/not a chat completion|HTML page/);
      expect(error!.message).toContain(
        "baseURL points at an OpenAI-compatible API and not at a proxy's or a login page",
      );
      expect(server.requests).toHaveLength(1);
    });

    it("should end a request the server never answers with the per-call timeout (TimeoutError), after one request", async () => {
      server.handle(neverAnswer);
      const { error } = await settleCall(model(), input("hi", { timeout: 100 }), mode);
      expect(error?.name).toBe("TimeoutError");
      expect(server.requests).toHaveLength(1);
    });

    it("should end a request the server never answers with the signal (AbortError), after one request", async () => {
      server.handle(neverAnswer);
      const { error } = await settleCall(model(), input("hi", { signal: AbortSignal.timeout(100) }), mode);
      expect(error?.name).toBe("TimeoutError");
      // Aborted once the server holds the request (a fixed delay could fire before it arrives on a loaded machine).
      const controller = new AbortController();
      server.handle((request, response) => {
        setTimeout(() => controller.abort(), 10);
        return neverAnswer(request, response);
      });
      const aborted = await settleCall(model(), input("hi", { signal: controller.signal }), mode);
      expect(aborted.error?.name).toBe("AbortError");
      expect(server.requests).toHaveLength(2);
    });
  });

  describe("create", () => {
    it("should retry a connection reset in the middle of the JSON body and succeed", async () => {
      await expectRetriedThenAnswered(
        subject(),
        resetMidBody("application/json", '{"id":"chatcmpl-1","choices":[{"index":0,'),
        "create",
      );
    });
  });

  describe("createStream", () => {
    it.each([
      { fault: "a connection reset", handler: resetMidBody(sse, firstText), reason: "network" },
      {
        fault: "a stream that stops without its final chunk or [DONE]",
        handler: answerRaw(200, sse, firstText),
        reason: "network",
      },
      {
        fault: "a malformed SSE line",
        handler: answerRaw(200, sse, `${firstText}data: {"choices": [\n\n${chunk({}, "stop")}data: [DONE]\n\n`),
        reason: "server",
      },
      {
        fault: "an event that is JSON but not a chunk",
        handler: answerRaw(200, sse, `${firstText}data: null\n\n${chunk({}, "stop")}data: [DONE]\n\n`),
        reason: "server",
      },
      {
        fault: "an error event",
        handler: answerRaw(200, sse, `${firstText}data: {"error":{"message":"overloaded","type":"server_error"}}\n\n`),
        reason: "server",
      },
    ])(
      "should end $fault after text was delivered in a ProviderError carrying the partial output, without retrying",
      async ({ handler, reason }) => {
        await expectPartialOutputError(subject(), handler, reason, "Hel");
      },
    );

    it.each([
      { fault: "a connection reset", handler: resetMidBody(sse, chunk({ role: "assistant" })) },
      { fault: "a stream cut short", handler: answerRaw(200, sse, chunk({ role: "assistant" })) },
      { fault: "a malformed SSE line", handler: answerRaw(200, sse, "data: {not json\n\n") },
    ])("should retry $fault before any text was delivered, and succeed", async ({ handler }) => {
      expect(textOf(await expectRetriedThenAnswered(subject(), handler, "createStream"))).toBe("Hello there");
    });

    it("should take a stream that has its finish_reason but no [DONE] as complete", async () => {
      server.handle(answerRaw(200, sse, firstText + chunk({ content: "lo" }, "stop")));
      const { output } = await settleCall(model(), input(), "createStream");
      expect(output).toMatchObject({ text: "Hello", finishReason: "stop" });
    });

    it("should end a stream aborted mid-body with AbortError, never with its partial text as the answer", async () => {
      await expectAbortMidStream(subject(), sse, firstText, "Hel");
    });
  });
});
