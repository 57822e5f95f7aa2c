import { createClient } from "@redis/client";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { OpenAIChatModel } from "../../src/adapters/openai/index.js";
import type { ChatModelInput, RateLimitOptions, WarningEvent } from "../../src/index.js";
import type { LoopbackServer, RecordedRequest } from "../support/loopback-server.js";
import { startLoopbackServer } from "../support/loopback-server.js";
import { openAITextReply, readOwnOpenAIFixture } from "../support/openai-wire.js";
import { callModes, settleCall, user } from "../support/run-modes.js";

/** Per request: when it arrived, and how many were in flight then (itself included). */
interface Arrival {
  at: number;
  inFlight: number;
}

let server: LoopbackServer;
let arrivals: Arrival[] = [];
let inFlight = 0;
/** How long the server takes to answer, and what it answers with. */
let answerDelayMs = 0;
let reply: (request: RecordedRequest) => { status: number; headers: Record<string, string>; body: string } = (
  request,
) => {
  const text = openAITextReply("OK.");
  const step = (request.json as { stream?: boolean }).stream ? text.stream! : text.create!;
  return { status: step.status ?? 200, headers: step.headers as Record<string, string>, body: step.body as string };
};
const defaultReply = reply;

beforeAll(async () => {
  server = await startLoopbackServer(async (request, response) => {
    inFlight++;
    arrivals.push({ at: performance.now(), inFlight });
    try {
      if (answerDelayMs > 0) await new Promise((resolve) => setTimeout(resolve, answerDelayMs));
      const { status, headers, body } = reply(request);
      response.writeHead(status, headers);
      response.end(body);
    } finally {
      inFlight--;
    }
  });
  // Loaded once before the timings: the SDK, the pipeline and the limiter (a first request's set-up is not a window's).
  const warm = new OpenAIChatModel("gpt-4o-mini", { baseURL: `${server.url}/warm`, apiKey: "sk-test" });
  await warm.create({ messages: [user("warm up")] });
  await new OpenAIChatModel("gpt-4o-mini", { baseURL: `${server.url}/warm`, apiKey: "sk-test", rateLimit: {} }).create({
    messages: [user("warm up")],
  });
});
afterAll(() => server.close());
beforeEach(() => {
  arrivals = [];
  inFlight = 0;
  answerDelayMs = 0;
  reply = defaultReply;
});

/** A model of its own endpoint path per test, so no two tests share a budget. */
let endpoints = 0;
function limitedModel(rateLimit: RateLimitOptions) {
  return new OpenAIChatModel("gpt-4o-mini", {
    baseURL: `${server.url}/v${++endpoints}`,
    apiKey: "sk-test",
    retry: { maxRetries: 0 },
    rateLimit,
  });
}

const ask: ChatModelInput = { messages: [user("Hello?")] };

/** The shortest time between request i and request i + n: a window's budget of n allows no less than the window. */
function shortestSpan(n: number): number {
  const times = arrivals.map((arrival) => arrival.at).sort((a, b) => a - b);
  let shortest = Infinity;
  for (let index = 0; index + n < times.length; index++)
    shortest = Math.min(shortest, times[index + n]! - times[index]!);
  return shortest;
}

describe("rateLimit", () => {
  describe.each(callModes)("through %s", (mode) => {
    it("should let a window's budget through at once and hold the next call", async () => {
      // 2 a minute: the third call waits for a window that does not pass within its timeout.
      const model = limitedModel({ requestsPerMinute: 2 });
      const results = await Promise.all(
        Array.from({ length: 3 }, () => settleCall(model, { ...ask, timeout: 600 }, mode)),
      );
      expect(results.map((result) => result.output?.text ?? result.error?.name).sort()).toEqual([
        "OK.",
        "OK.",
        "TimeoutError",
      ]);
      expect(arrivals).toHaveLength(2);
    });

    it("should send the held calls once the window has passed", async () => {
      const model = limitedModel({ requestsPerMinute: 120, windowMs: 1000 }); // 2 a second
      const results = await Promise.all(Array.from({ length: 3 }, () => settleCall(model, ask, mode)));
      expect(results.map((result) => result.output?.text)).toEqual(["OK.", "OK.", "OK."]);
      expect(arrivals).toHaveLength(3);
      // The third went in the next window (a generous bound: the first may reach the server late).
      expect(shortestSpan(2)).toBeGreaterThanOrEqual(600);
    });

    it("should keep no more than maxConcurrent requests in flight", async () => {
      answerDelayMs = 60;
      const model = limitedModel({ maxConcurrent: 2 });
      const results = await Promise.all(Array.from({ length: 6 }, () => settleCall(model, ask, mode)));
      expect(results.every((result) => result.output?.text === "OK.")).toBe(true);
      expect(arrivals).toHaveLength(6);
      expect(Math.max(...arrivals.map((arrival) => arrival.inFlight))).toBe(2);
    });

    it("should end a call held for its budget when its signal aborts, without sending it", async () => {
      const model = limitedModel({ requestsPerMinute: 60, windowMs: 1000 }); // 1 a second
      await settleCall(model, ask, mode);
      const controller = new AbortController();
      setTimeout(() => controller.abort(), 50);
      const started = performance.now();
      const { error } = await settleCall(model, { ...ask, signal: controller.signal }, mode);
      expect(error?.name).toBe("AbortError");
      expect(performance.now() - started).toBeLessThan(700);
      expect(arrivals).toHaveLength(1);
    });

    it("should count the time held in the call's timeout", async () => {
      const model = limitedModel({ requestsPerMinute: 60, windowMs: 1000 });
      await settleCall(model, ask, mode);
      const { error } = await settleCall(model, { ...ask, timeout: 80 }, mode);
      expect(error?.name).toBe("TimeoutError");
      expect(arrivals).toHaveLength(1);
    });
  });

  it("should settle the tokens from the reported usage: a small reply gives back what the estimate held", async () => {
    // 100 tokens a minute; each request is estimated at ~70 (its text and maxTokens 60) and reports 8:
    // unsettled, the second request would wait a minute, past its timeout.
    const model = limitedModel({ tokensPerMinute: 100 });
    const input = { ...ask, parameters: { maxTokens: 60 }, timeout: 3_000 };
    for (let index = 0; index < 4; index++) expect((await model.create(input)).text).toBe("OK.");
    expect(arrivals).toHaveLength(4);
  });

  it("should settle the tokens from the reported usage: a large reply holds the next request", async () => {
    const completion = JSON.parse(openAITextReply("OK.").create!.body as string) as { usage: object };
    completion.usage = { prompt_tokens: 300, completion_tokens: 200, total_tokens: 500 };
    reply = () => ({ status: 200, headers: { "content-type": "application/json" }, body: JSON.stringify(completion) });
    const model = limitedModel({ tokensPerMinute: 1000 });
    await model.create(ask);
    await model.create(ask);
    // Two replies of 500 filled the minute: the third waits past its timeout, unsent.
    await expect(model.create({ ...ask, timeout: 300 })).rejects.toMatchObject({ name: "TimeoutError" });
    expect(arrivals).toHaveLength(2);
  });

  it("should pause the budget for a 429's Retry-After", async () => {
    let first = true;
    reply = (request) => {
      if (!first) return defaultReply(request);
      first = false;
      return {
        status: 429,
        headers: { "content-type": "application/json", "retry-after": "1" },
        body: readOwnOpenAIFixture("error-429-rate-limit.json"),
      };
    };
    const model = limitedModel({ requestsPerMinute: 6000 });
    const failed = await settleCall(model, ask, "create");
    expect(failed.error?.statusCode).toBe(429);
    const { output } = await settleCall(model, ask, "create");
    expect(output?.text).toBe("OK.");
    expect(arrivals).toHaveLength(2);
    expect(arrivals[1]!.at - arrivals[0]!.at).toBeGreaterThanOrEqual(900);
  });

  it("should go on with the process's own budget and one warning when the store never answers", async () => {
    const never = () => new Promise(() => undefined);
    const hangingStore = {
      isReady: true,
      eval: never,
      multi() {
        const chain = { get: () => chain, pTTL: () => chain, set: () => chain, incrBy: () => chain, exec: never };
        return chain;
      },
    };
    const model = limitedModel({ requestsPerMinute: 60, windowMs: 1000, store: hangingStore, storeTimeoutMs: 50 });
    const warnings: WarningEvent[] = [];
    model.emitter.on("warning", (event) => warnings.push(event));
    const results = await Promise.all([settleCall(model, ask, "create"), settleCall(model, ask, "createStream")]);
    expect(results.map((result) => result.output?.text)).toEqual(["OK.", "OK."]);
    expect(warnings).toEqual([
      expect.objectContaining({ code: "rate-limit-store", message: expect.stringContaining("rateLimit.store") }),
    ]);
    // Still 1 a second, in this process.
    expect(arrivals[1]!.at - arrivals[0]!.at).toBeGreaterThanOrEqual(600);
  });

  it("should go on with one warning when the Redis client is not connected", async () => {
    const store = createClient({ url: "redis://127.0.0.1:1" }); // never connected: not ready
    const model = limitedModel({ requestsPerMinute: 600, store });
    const warnings: WarningEvent[] = [];
    model.emitter.on("warning", (event) => warnings.push(event));
    for (let index = 0; index < 3; index++) expect((await model.create(ask)).text).toBe("OK.");
    expect(warnings).toHaveLength(1);
    expect(warnings[0]!.message).toContain("Redis connection is not ready");
  });

  it("should refuse bad options with a TypeError naming the option", () => {
    expect(() => limitedModel({ requestsPerMinute: 0 })).toThrow(
      /rateLimit.requestsPerMinute must be a positive integer/,
    );
    expect(() => limitedModel({ windowMs: 1500 })).toThrow(/rateLimit.windowMs/);
    expect(() => limitedModel({ requestsPerMinute: 30, windowMs: 1000 })).toThrow(/too short for requestsPerMinute/);
    expect(() => limitedModel({ store: {} })).toThrow(/rateLimit.store must be a connected Redis client/);
  });
});
