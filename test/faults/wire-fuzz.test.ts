import fc from "fast-check";
import OpenAI from "openai";
import { describe, expect, it } from "vitest";
import { OllamaChatModel } from "../../src/adapters/ollama/index.js";
import { OpenAIChatModel } from "../../src/adapters/openai/index.js";
import { ChatModelError } from "../../src/index.js";
import type { ChatModel } from "../../src/index.js";

/**
 * Broken wire traffic, generated: the real SDKs read bodies made of valid events, garbage lines,
 * error events, blank lines, cut at any byte and sometimes ending in a connection error. Every call
 * must end in an output or in keelson's own error — never another error, never a hang — and an
 * output is only ever returned when the body carried the reply's end (a finish_reason / done line).
 */
const runs = 1_000;

const openAIChunk = (delta: object, finishReason: string | null = null) =>
  `data: ${JSON.stringify({ id: "c", object: "chat.completion.chunk", created: 1, model: "m", choices: [{ index: 0, delta, finish_reason: finishReason }] })}\n\n`;
const ollamaLine = (content: string, done = false) =>
  `${JSON.stringify({ model: "m", created_at: "x", message: { role: "assistant", content }, done, ...(done ? { done_reason: "stop" } : {}) })}\n`;

const text = fc.string({ minLength: 1, maxLength: 8 });
const garbage = fc.oneof(
  fc.string({ maxLength: 40 }),
  fc.constantFrom("{", '{"choices": [', "<html>", "\u0000\u0001", '{"message":', "0", "null", "[]", '"text"', "true"),
);

const openAIEvent = fc.oneof(
  { weight: 5, arbitrary: text.map((piece) => openAIChunk({ content: piece })) },
  { weight: 1, arbitrary: fc.constant(openAIChunk({}, "stop")) },
  { weight: 1, arbitrary: fc.constant("data: [DONE]\n\n") },
  { weight: 1, arbitrary: garbage.map((line) => `data: ${line}\n\n`) },
  { weight: 1, arbitrary: fc.constant('data: {"error":{"message":"overloaded","type":"server_error"}}\n\n') },
  { weight: 1, arbitrary: fc.constant("\n") },
);
const ollamaEvent = fc.oneof(
  { weight: 5, arbitrary: text.map((piece) => ollamaLine(piece)) },
  { weight: 1, arbitrary: fc.constant(ollamaLine("", true)) },
  { weight: 1, arbitrary: garbage.map((line) => `${line}\n`) },
  { weight: 1, arbitrary: fc.constant('{"error":"model runner crashed"}\n') },
  { weight: 1, arbitrary: fc.constant("\n") },
);

interface Wire {
  body: string;
  /** Where the body is cut (a fraction of its length), or undefined for the whole body. */
  cut: number | undefined;
  /** Whether the body then fails like a reset connection instead of ending. */
  reset: boolean;
}

const wire = (event: fc.Arbitrary<string>) =>
  fc.record({
    body: fc.array(event, { maxLength: 12 }).map((events) => events.join("")),
    cut: fc.option(fc.double({ min: 0, max: 1, noNaN: true }), { nil: undefined }),
    reset: fc.boolean(),
  });

function delivered(sent: Wire): string {
  return sent.cut === undefined ? sent.body : sent.body.slice(0, Math.floor(sent.body.length * sent.cut));
}

/** A fetch that answers in-process with `sent` (streamed as SSE or NDJSON, or as one JSON body). */
function fetchFor(next: () => Wire, contentType: string): typeof fetch {
  return async () => {
    const sent = next();
    const bytes = new TextEncoder().encode(delivered(sent));
    const body = new ReadableStream<Uint8Array>({
      start(controller) {
        const half = Math.floor(bytes.length / 2);
        controller.enqueue(bytes.slice(0, half));
        controller.enqueue(bytes.slice(half));
        // As undici reports a connection lost mid-body.
        if (sent.reset)
          controller.error(
            new TypeError("terminated", {
              cause: Object.assign(new Error("other side closed"), { code: "UND_ERR_SOCKET" }),
            }),
          );
        else controller.close();
      },
    });
    return new Response(body, { status: 200, headers: { "content-type": contentType } });
  };
}

async function expectOutputOrOwnError(
  model: ChatModel,
  finished: (body: string) => boolean,
  body: () => string,
): Promise<void> {
  const chunks: string[] = [];
  try {
    const stream = model.createStream({ messages: [{ role: "user", content: "hi" }] });
    for await (const chunk of stream) if (chunk.type === "text-delta") chunks.push(chunk.text);
    const output = await stream.final();
    expect(finished(body()), `an output from a body without its end: ${JSON.stringify(body())}`).toBe(true);
    expect(output.text).toBe(chunks.join(""));
  } catch (error) {
    expect(ChatModelError.isInstance(error), `not keelson's own error: ${String(error)}`).toBe(true);
  }
}

describe("the streaming wire, fuzzed through the real SDKs", () => {
  const options = { retry: { maxRetries: 0 }, maxRepairAttempts: 0 } as const;

  it(`should end each of ${runs} broken OpenAI SSE bodies in an output or keelson's own error`, async () => {
    let current: Wire = { body: "", cut: undefined, reset: false };
    const client = new OpenAI({
      apiKey: "sk-fuzz",
      baseURL: "http://127.0.0.1:9/v1",
      maxRetries: 0,
      fetch: fetchFor(() => current, "text/event-stream"),
    });
    const model = new OpenAIChatModel("gpt-4o-mini", { client, ...options });
    const log = console.error;
    console.error = () => undefined; // the SDK logs every line it cannot parse
    try {
      await fc.assert(
        fc.asyncProperty(wire(openAIEvent), async (sent) => {
          current = sent;
          await expectOutputOrOwnError(
            model,
            (body) => body.includes('"finish_reason":"stop"'),
            () => delivered(sent),
          );
        }),
        { numRuns: runs },
      );
    } finally {
      console.error = log;
    }
  });

  it(`should end each of ${runs} broken Ollama NDJSON bodies in an output or keelson's own error`, async () => {
    let current: Wire = { body: "", cut: undefined, reset: false };
    const model = new OllamaChatModel("llama3.2", {
      host: "http://127.0.0.1:9",
      fetch: fetchFor(() => current, "application/x-ndjson"),
      ...options,
    });
    await fc.assert(
      fc.asyncProperty(wire(ollamaEvent), async (sent) => {
        current = sent;
        await expectOutputOrOwnError(
          model,
          (body) => body.includes('"done":true'),
          () => delivered(sent),
        );
      }),
      { numRuns: runs },
    );
  });
});
