import fc from "fast-check";
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from "vitest";
import { OpenAIChatModel } from "../../src/adapters/openai/index.js";
import { MemoryCache } from "../../src/index.js";
import type { ChatModel, ChatModelChunk, ChatModelInput, ChatModelStream } from "../../src/index.js";
import { ScriptedChatModel, streamStep } from "../../src/testing/index.js";
import { startLoopbackServer, type LoopbackServer, type RecordedRequest } from "../support/loopback-server.js";
import { textReplyHandler } from "../support/openai-wire.js";

// Issue 25 item 4: a stream settles on every path, its events come in order on every path, and it
// opens one request however it is consumed. Every wait is bounded: a hang fails the test.

const user = (content: string) => ({ role: "user" as const, content });
const lifecycle = ["start", "success", "error", "finish"] as const;

/** What a promise came to within `ms`; a promise still pending then fails the test. */
async function within<T>(promise: Promise<T>, ms = 5_000): Promise<PromiseSettledResult<T>> {
  let timer: ReturnType<typeof setTimeout> | undefined;
  const hang = new Promise<never>((_resolve, reject) => {
    timer = setTimeout(() => reject(new Error(`still pending after ${ms} ms`)), ms);
  });
  try {
    const [settled] = await Promise.race([Promise.allSettled([promise]), hang]);
    return settled;
  } finally {
    clearTimeout(timer);
  }
}

/** The lifecycle events of every call on the model, in order. */
function recordLifecycle(model: ChatModel): string[] {
  const events: string[] = [];
  for (const event of lifecycle) model.emitter.on(event, () => events.push(event));
  return events;
}

/** A lifecycle is nothing (a stream never read), or start, then success or error, then finish. */
function expectOneLifecycle(events: readonly string[], outcome?: "success" | "error"): void {
  if (outcome === undefined && events.length === 0) return;
  expect(events).toEqual(["start", outcome ?? events[1], "finish"]);
  expect(["success", "error"]).toContain(events[1]);
}

/** How a subject's stream is made and its requests counted. */
interface Subject {
  model: ChatModel;
  requests(): number;
  /** The chunks a stream read to its end gives. */
  chunks: readonly ChatModelChunk[];
  text: string;
  /** The prompt its calls send (a request is counted by it). @default "hi" */
  prompt?: string;
}

const scriptedChunks = ["The ", "sky ", "is ", "blue."];
function scripted(): Subject {
  // Two steps: a second request would be answered (and counted), not refused.
  const model = new ScriptedChatModel([streamStep(scriptedChunks), streamStep(scriptedChunks)]);
  return {
    model,
    requests: () => model.calls.length,
    chunks: [
      ...scriptedChunks.map((text) => ({ type: "text-delta" as const, text })),
      { type: "finish" as const, finishReason: "stop" as const },
    ],
    text: scriptedChunks.join(""),
  };
}

/** A ScriptedChatModel whose answer is in its cache already: a stream replays it, with no request. */
async function cached(): Promise<Subject> {
  const subject = scripted();
  const model = new ScriptedChatModel([streamStep(scriptedChunks), streamStep(scriptedChunks)], {
    cache: new MemoryCache(),
  });
  await model.create({ messages: [user("hi")] });
  // A replay hands out the stored text in one delta.
  const chunks = [{ type: "text-delta" as const, text: subject.text }, subject.chunks.at(-1)!];
  return { ...subject, model, chunks, requests: () => model.calls.length - 1 };
}

let server: LoopbackServer;
beforeAll(async () => {
  server = await startLoopbackServer(textReplyHandler("Hello there, streamed"));
});
afterAll(async () => {
  await server.close();
});
afterEach(() => {
  vi.restoreAllMocks();
});

let openAIRuns = 0;
function openAI(): Subject {
  const model = new OpenAIChatModel("gpt-4o-mini", {
    baseURL: `${server.url}/v1`,
    apiKey: "sk-lifecycle-0123456789",
    retry: { maxRetries: 0 },
  });
  // A request counts by its own prompt: an aborted one of an earlier run may reach the server late.
  const prompt = `hi ${++openAIRuns}`;
  const asked = (request: RecordedRequest) =>
    (request.json as { messages?: { content?: unknown }[] } | undefined)?.messages?.at(-1)?.content === prompt;
  return {
    model,
    prompt,
    requests: () => server.requests.filter(asked).length,
    chunks: [
      { type: "text-delta", text: "Hello there" },
      { type: "text-delta", text: ", streamed" },
      { type: "finish", finishReason: "stop" },
    ],
    text: "Hello there, streamed",
  };
}

/** Lets the call move: the SDK's socket reads and timers run. */
const tick = () => new Promise((resolve) => setImmediate(resolve));

type Op = "next" | "return" | "throw" | "final" | "tick";
const ops = fc.array(fc.constantFrom<Op>("next", "next", "next", "return", "throw", "final", "tick"), {
  minLength: 1,
  maxLength: 10,
});

/**
 * Runs the operations on one stream without awaiting them (a `tick` lets the call move), then asks
 * for final() once more, and checks what a consumer would notice.
 */
async function interleave(
  subject: Subject,
  sequence: readonly Op[],
  iterateFirst: boolean,
  requestsPerCall = 1,
): Promise<void> {
  const events = recordLifecycle(subject.model);
  const stream = subject.model.createStream({ messages: [user(subject.prompt ?? "hi")] });
  let iterator: AsyncIterator<ChatModelChunk> | undefined;
  let refused: unknown;
  const iterate = () => {
    if (iterator === undefined && refused === undefined) {
      try {
        iterator = stream[Symbol.asyncIterator]();
      } catch (error) {
        refused = error;
      }
    }
    return iterator;
  };
  if (iterateFirst) iterate();
  const reads: Promise<IteratorResult<ChatModelChunk>>[] = [];
  const others: Promise<unknown>[] = [];
  const consumerError = new Error("the consumer failed");
  for (const op of sequence) {
    if (op === "tick") await tick();
    // final() settles as the last final() below does (checked there).
    else if (op === "final") others.push(stream.final().catch((error: unknown) => error));
    else if (op === "next") {
      const read = iterate()?.next();
      if (read) reads.push(read);
    } else if (op === "return") others.push(iterate()?.return?.() ?? Promise.resolve());
    else {
      const thrown = iterate()?.throw?.(consumerError);
      if (thrown)
        others.push(
          thrown.then(
            () => expect.unreachable("throw() resolved"),
            (error) => error,
          ),
        );
    }
  }
  // Iteration after final() began is refused with a TypeError saying so, never a second request.
  if (refused !== undefined) expect(String(refused)).toMatch(/TypeError: .*iterated once/);
  const settledReads = await Promise.all(reads.map((read) => within(read)));
  for (const other of others) expect((await within(other)).status).toBe("fulfilled");
  const final = await within(stream.final());

  // The reads, in the order they were asked for, are the stream's chunks from the first, then the end.
  const values: ChatModelChunk[] = [];
  let ended = false;
  for (const read of settledReads) {
    expect(read.status).toBe("fulfilled");
    const result = (read as PromiseFulfilledResult<IteratorResult<ChatModelChunk>>).value;
    if (result.done) ended = true;
    else {
      expect(ended).toBe(false);
      values.push(result.value);
    }
  }
  expect(values).toEqual(subject.chunks.slice(0, values.length).map((chunk) => expect.objectContaining(chunk)));

  // One request at most, and one exactly for a call that started; one lifecycle, agreeing with final().
  if (final.status === "fulfilled") {
    expect(final.value.text).toBe(subject.text);
    expectOneLifecycle(events, "success");
    expect(subject.requests()).toBe(requestsPerCall);
  } else {
    expect((final.reason as Error).name).toBe("AbortError");
    expectOneLifecycle(events);
    if (events.length === 0) expect(subject.requests()).toBe(0);
    else expect(subject.requests()).toBeLessThanOrEqual(requestsPerCall);
  }
}

describe("a stream consumed in any interleaving of next(), return(), throw() and final()", () => {
  it("should settle every call, open one request, hand out the chunks in order and emit one lifecycle (ScriptedChatModel)", async () => {
    await fc.assert(
      fc.asyncProperty(ops, fc.boolean(), (sequence, iterateFirst) => interleave(scripted(), sequence, iterateFirst)),
      { numRuns: 150, interruptAfterTimeLimit: 40_000 },
    );
  }, 60_000);

  it("should do the same for a stream replayed from the cache, with no request", async () => {
    await fc.assert(
      fc.asyncProperty(ops, fc.boolean(), async (sequence, iterateFirst) =>
        interleave(await cached(), sequence, iterateFirst, 0),
      ),
      { numRuns: 100, interruptAfterTimeLimit: 40_000 },
    );
  }, 60_000);

  it("should do the same through the openai SDK reading SSE from a loopback server", async () => {
    await fc.assert(
      fc.asyncProperty(ops, fc.boolean(), (sequence, iterateFirst) => interleave(openAI(), sequence, iterateFirst)),
      { numRuns: 40, interruptAfterTimeLimit: 40_000 },
    );
  }, 60_000);

  it.each([
    ["ScriptedChatModel", scripted],
    ["OpenAIChatModel on loopback", openAI],
  ])(
    "should answer three next() calls made at once, and final() beside them, from one request: %s",
    async (_label, make) => {
      const subject = make();
      const stream = subject.model.createStream({ messages: [user(subject.prompt ?? "hi")] });
      const iterator = stream[Symbol.asyncIterator]();
      const reads = [iterator.next(), iterator.next(), iterator.next()];
      const final = stream.final();
      const results = await Promise.all(reads.map((read) => within(read)));
      const output = await within(final);
      expect(output).toMatchObject({ status: "fulfilled", value: { text: subject.text } });
      const expected = subject.chunks.slice(0, 3);
      expect(results.map((result) => (result as PromiseFulfilledResult<IteratorResult<ChatModelChunk>>).value)).toEqual(
        expected.map((chunk) => ({ done: false, value: expect.objectContaining(chunk) })),
      );
      expect(subject.requests()).toBe(1);
    },
  );
});

/** Hostile listener behaviours: each must leave the call as if no listener were there. */
const hostile = {
  none: undefined,
  "throws an Error": () => {
    throw new Error("listener failed");
  },
  "throws a null-prototype object": () => {
    throw Object.create(null);
  },
  "throws an Error whose message getter throws": () => {
    const error = new Error("x");
    Object.defineProperty(error, "message", {
      get() {
        throw new Error("no message");
      },
    });
    throw error;
  },
  rejects: () => Promise.reject(Object.create(null)),
  "returns a thenable whose then throws": () => ({
    then() {
      throw new Error("then failed");
    },
  }),
} satisfies Record<string, ((payload: unknown) => unknown) | undefined>;
const behaviours = Object.keys(hostile) as (keyof typeof hostile)[];
const listened = ["start", "newToken", "cacheHit", "success", "error", "finish"] as const;

describe("hostile listeners on every event", () => {
  it("should leave create, createStream (iterated or final() alone) and a cache hit answering, each with one lifecycle", async () => {
    const warnings = vi.spyOn(process, "emitWarning").mockImplementation(() => undefined);
    await fc.assert(
      fc.asyncProperty(
        fc.record(Object.fromEntries(listened.map((event) => [event, fc.constantFrom(...behaviours)]))),
        async (chosen) => {
          const steps = Array.from({ length: 3 }, () => streamStep(scriptedChunks));
          const model = new ScriptedChatModel(steps, { cache: new MemoryCache() });
          for (const event of listened) {
            const listener = hostile[chosen[event] as keyof typeof hostile];
            if (listener) model.emitter.on(event, listener as () => void);
          }
          const events = recordLifecycle(model);
          const text = scriptedChunks.join("");
          const input = (prompt: string): ChatModelInput => ({ messages: [user(prompt)] });
          expect((await within(model.create(input("create")))).status).toBe("fulfilled");
          const iterated = model.createStream(input("iterated"));
          const seen: string[] = [];
          const read = (async () => {
            for await (const chunk of iterated) if (chunk.type === "text-delta") seen.push(chunk.text);
          })();
          expect((await within(read)).status).toBe("fulfilled");
          expect(seen.join("")).toBe(text);
          expect(await within(model.createStream(input("final")).final())).toMatchObject({ value: { text } });
          // The same input again: answered from the cache, without a request.
          expect(await within(model.createStream(input("final")).final())).toMatchObject({
            value: { text, meta: { cacheHit: true } },
          });
          expect(model.calls).toHaveLength(3);
          expect(events).toEqual(Array.from({ length: 4 }, () => ["start", "success", "finish"]).flat());
        },
      ),
      { numRuns: 60, interruptAfterTimeLimit: 40_000 },
    );
    // The throwing ones were reported, not swallowed in silence.
    expect(warnings.mock.calls.length).toBeGreaterThan(0);
  }, 60_000);
});

const aborted = () => AbortSignal.abort();
/** Paths a call can fail on before or while it reads: each must end in error then finish. */
const failingInputs: [string, () => ChatModelInput, RegExp][] = [
  ["input rejected before prepare (no messages)", () => ({ messages: [] }), /TypeError: input.messages/],
  [
    "a plain object as signal",
    () => ({ messages: [user("hi")], signal: { aborted: false } as AbortSignal }),
    /TypeError: input.signal must be an AbortSignal/,
  ],
  [
    "a signal getter that throws something without a prototype",
    () =>
      Object.defineProperty({ messages: [user("hi")] }, "signal", {
        enumerable: true,
        get() {
          throw Object.create(null);
        },
      }) as ChatModelInput,
    /Error: an unprintable/,
  ],
  ["a signal already aborted", () => ({ messages: [user("hi")], signal: aborted() }), /AbortError/],
  ["a timeout that passes", () => ({ messages: [user("slow")], timeout: 5 }), /TimeoutError/],
];

describe("every failing path ends in error then finish, and final() settles with the same error", () => {
  const slowModel = () => new ScriptedChatModel([streamStep(scriptedChunks, { delayMs: 2_000 })]);

  it.each(failingInputs)("create: %s", async (_label, input, expected) => {
    const model = slowModel();
    const events = recordLifecycle(model);
    const settled = await within(model.create(input()));
    expect(settled.status).toBe("rejected");
    expect(String((settled as PromiseRejectedResult).reason)).toMatch(expected);
    expect(events).toEqual(["start", "error", "finish"]);
  });

  it.each(failingInputs)("createStream, iterated, then final(): %s", async (_label, input, expected) => {
    const model = slowModel();
    const events = recordLifecycle(model);
    const stream: ChatModelStream = model.createStream(input());
    const iterated = await within(
      (async () => {
        for await (const _chunk of stream) {
          // read to the end
        }
      })(),
    );
    expect(iterated.status).toBe("rejected");
    const error = (iterated as PromiseRejectedResult).reason as Error;
    expect(String(error)).toMatch(expected);
    expect(await within(stream.final())).toEqual({ status: "rejected", reason: error });
    // Iterating again is refused plainly; the stream never reads twice.
    expect(() => stream[Symbol.asyncIterator]()).toThrow(/iterated once/);
    expect(events).toEqual(["start", "error", "finish"]);
  });

  it("createStream: a for await broken early, then final(), rejects with an AbortError and ends one lifecycle", async () => {
    const subject = scripted();
    const events = recordLifecycle(subject.model);
    const stream = subject.model.createStream({ messages: [user("hi")] });
    for await (const _chunk of stream) break;
    const final = await within(stream.final());
    expect(final.status).toBe("rejected");
    expect((final as PromiseRejectedResult).reason).toMatchObject({ name: "AbortError" });
    expect(events).toEqual(["start", "error", "finish"]);
    expect(subject.requests()).toBe(1);
  });

  it("createStream: a newToken listener's abort() ends it as a success with what arrived", async () => {
    const subject = scripted();
    const events = recordLifecycle(subject.model);
    subject.model.emitter.on("newToken", ({ abort }) => abort());
    const stream = subject.model.createStream({ messages: [user("hi")] });
    const chunks: ChatModelChunk[] = [];
    for await (const chunk of stream) chunks.push(chunk);
    expect(chunks).toEqual([{ type: "text-delta", text: "The " }]);
    expect(await within(stream.final())).toMatchObject({ value: { text: "The ", finishReason: "other" } });
    expect(events).toEqual(["start", "success", "finish"]);
  });
});
