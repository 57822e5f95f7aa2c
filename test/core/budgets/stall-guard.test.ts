// Stalls on the wire: an OpenAI model through its real SDK against a loopback server that opens a
// reply and then goes quiet (headers then silence; keep-alives and empty chunks only; text then silence).
import type { ServerResponse } from "node:http";
import { beforeAll, describe, expect, it } from "vitest";
import { OpenAIChatModel } from "../../../src/adapters/openai/index.js";
import type { OpenAIChatModelOptions } from "../../../src/adapters/openai/index.js";
import { ProviderError, withFallbacks, type RetryEvent } from "../../../src/index.js";
import { useLoopbackServer, type RecordedRequest } from "../../support/loopback-server.js";
import { openAITextReply } from "../../support/openai-wire.js";
import { callModes, settleCall } from "../../support/run-modes.js";

const ask = { messages: [{ role: "user" as const, content: "hi" }] };
const stall = { firstChunkMs: 150, chunkMs: 150 };
const reply = openAITextReply("Hello there");

type Behaviour = (request: RecordedRequest, response: ServerResponse) => void;

/** Headers, then nothing (until the client goes away). */
const headersThenSilence: Behaviour = (request, response) => {
  response.writeHead(200, { "content-type": request.json?.stream ? "text/event-stream" : "application/json" });
  response.flushHeaders();
};

/** SSE comments and an empty delta every 20 ms: a connection that is alive and says nothing. */
const keepAlivesOnly: Behaviour = (request, response) => {
  response.writeHead(200, { "content-type": request.json?.stream ? "text/event-stream" : "application/json" });
  const empty = { id: "c", object: "chat.completion.chunk", created: 1, model: "m" };
  const beat = () => {
    // A request that does not stream gets JSON whitespace, which its parser waits past.
    if (!request.json?.stream) return response.write(" ");
    response.write(": keep-alive\n\n");
    return response.write(`data: ${JSON.stringify({ ...empty, choices: [{ index: 0, delta: { content: "" } }] })}\n\n`);
  };
  const timer = setInterval(beat, 20);
  response.on("close", () => clearInterval(timer));
};

/** One text delta, then silence. */
const textThenSilence: Behaviour = (_request, response) => {
  response.writeHead(200, { "content-type": "text/event-stream" });
  const chunk = { id: "c", object: "chat.completion.chunk", created: 1, model: "m" };
  response.write(`data: ${JSON.stringify({ ...chunk, choices: [{ index: 0, delta: { content: "Hel" } }] })}\n\n`);
};

/** The reply the conformance helpers make, for create and for createStream. */
const answers: Behaviour = (request, response) => {
  const body = (request.json?.stream ? reply.stream : reply.create)!;
  response.writeHead(body.status ?? 200, body.headers);
  response.end(body.body);
};

describe("stallGuarded (timeout.firstChunkMs / chunkMs)", () => {
  const server = useLoopbackServer();
  const model = (options: OpenAIChatModelOptions = {}) =>
    new OpenAIChatModel("gpt-4o-mini", { baseURL: `${server.url}/v1`, apiKey: "sk-test", ...options });
  /** Answers the n-th request (from 0) with behaviours[n], the last one for the rest. */
  const serve = (...behaviours: Behaviour[]) => {
    let count = 0;
    server.handle((request, response) => behaviours[Math.min(count++, behaviours.length - 1)]!(request, response));
  };
  // The SDK loads on a process's first call, inside that call's first wait: loaded here, so 150 ms is the server's.
  beforeAll(async () => {
    serve(answers);
    await model().create(ask);
    await model().createStream(ask).final();
  });

  describe.each(callModes)("%s", (mode) => {
    it.each([
      ["headers then silence", headersThenSilence],
      ["keep-alives and empty chunks only", keepAlivesOnly],
    ])("should fail a reply that shows nothing (%s) with a retryable stalled ProviderError", async (_, behaviour) => {
      serve(behaviour);
      const { error, chunks } = await settleCall(model({ retry: { maxRetries: 0 } }), { ...ask, timeout: stall }, mode);
      expect(ProviderError.isInstance(error)).toBe(true);
      expect(error).toMatchObject({ reason: "timeout", code: "stalled", isRetryable: true });
      expect(error?.message).toMatch(/firstChunkMs \(150 ms\)/);
      expect(chunks).toEqual([]);
      expect(server.requests).toHaveLength(1);
    });

    it("should retry a stalled attempt and answer from the next one", async () => {
      serve(headersThenSilence, answers);
      const stalledModel = model({ retry: { maxRetries: 2, initialDelayMs: 1, maxDelayMs: 2 }, timeout: stall });
      const retries: RetryEvent[] = [];
      stalledModel.emitter.on("retry", (event) => retries.push(event));
      const { output, error } = await settleCall(stalledModel, ask, mode);
      expect(error).toBeUndefined();
      expect(output?.text).toBe("Hello there");
      expect(server.requests).toHaveLength(2);
      expect(retries.map((event) => (event.error as ProviderError).code)).toEqual(["stalled"]);
    });

    it("should let withFallbacks move on from a model that stalls", async () => {
      const stalling = (request: RecordedRequest, response: ServerResponse) =>
        request.url.startsWith("/stalls/") ? keepAlivesOnly(request, response) : answers(request, response);
      server.handle(stalling);
      const primary = new OpenAIChatModel("gpt-4o-mini", {
        baseURL: `${server.url}/stalls/v1`,
        apiKey: "sk-test",
        retry: { maxRetries: 0 },
      });
      const secondary = model({ retry: { maxRetries: 0 } });
      const fallback = withFallbacks([primary, secondary]);
      const reasons: string[] = [];
      fallback.emitter.on("fallback", (event) => reasons.push(event.reason));
      const { output, error } = await settleCall(fallback, { ...ask, timeout: stall }, mode);
      expect(error).toBeUndefined();
      expect(output?.text).toBe("Hello there");
      expect(server.requests.map((request) => request.url.startsWith("/stalls/"))).toEqual([true, false]);
      expect(reasons.join(" ")).toMatch(/stalled|firstChunkMs/);
    });
  });

  it("should reject a stream silent after its first text with its partialOutput, not retried", async () => {
    serve(textThenSilence, answers);
    const stream = model({ retry: { maxRetries: 2, initialDelayMs: 1 } }).createStream({ ...ask, timeout: stall });
    const texts: string[] = [];
    const failure = await (async () => {
      for await (const chunk of stream) if (chunk.type === "text-delta") texts.push(chunk.text);
    })().catch((caught: unknown) => caught as ProviderError);
    expect(texts).toEqual(["Hel"]);
    expect(failure).toMatchObject({ reason: "timeout", code: "stalled", isRetryable: false });
    expect(failure?.message).toMatch(/chunkMs \(150 ms\)/);
    expect(failure?.partialOutput).toMatchObject({ text: "Hel", finishReason: "error" });
    expect(server.requests).toHaveLength(1);
  });

  it("should not time a stream whose chunks keep coming, however long the whole takes", async () => {
    server.handle((_request, response) => {
      response.writeHead(200, { "content-type": "text/event-stream" });
      const chunk = { id: "c", object: "chat.completion.chunk", created: 1, model: "m" };
      const words = ["a", "b", "c", "d", "e", "f", "g", "h"];
      let sent = 0;
      const timer = setInterval(() => {
        const word = words[sent++];
        if (word === undefined) {
          clearInterval(timer);
          response.write(
            `data: ${JSON.stringify({ ...chunk, choices: [{ index: 0, delta: {}, finish_reason: "stop" }] })}\n\n`,
          );
          return response.end("data: [DONE]\n\n");
        }
        response.write(`data: ${JSON.stringify({ ...chunk, choices: [{ index: 0, delta: { content: word } }] })}\n\n`);
      }, 40);
      response.on("close", () => clearInterval(timer));
    });
    // 8 chunks 40 ms apart: longer than chunkMs in all, never silent for it.
    const output = await model()
      .createStream({ ...ask, timeout: { firstChunkMs: 150, chunkMs: 150 } })
      .final();
    expect(output.text).toBe("abcdefgh");
  });

  it("should refuse a timeout that is no bound, naming the field", () => {
    expect(() => model({ timeout: { firstChunkMs: -1 } })).toThrow(/timeout option\.firstChunkMs must be a positive/);
    expect(() => model({ timeout: { firstChunk: 5 } as never })).toThrow(/unknown field "firstChunk"/);
    return expect(model().create({ ...ask, timeout: "5s" as never })).rejects.toThrow(/input\.timeout must be/);
  });
});
