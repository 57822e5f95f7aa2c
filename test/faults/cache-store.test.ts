import fc from "fast-check";
import Keyv from "keyv";
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from "vitest";
import { OpenAIChatModel } from "../../src/adapters/openai/index.js";
import { ChatModelError, KeyvCache, MemoryCache, type ChatModel, type ChatModelCache } from "../../src/index.js";
import type { ChatModelInput, ToolDefinition, WarningEvent } from "../../src/index.js";
import { errorStep, ScriptedChatModel, textStep, toolCallStep } from "../../src/testing/index.js";
import { useLoopbackServer } from "../support/loopback-server.js";
import { sendTextReply } from "../support/openai-wire.js";
import { callModes, settleCall, user, type CallMode } from "../support/run-modes.js";

/**
 * A cache store can never swallow, delay or poison an answer (issue 25, item 5): stores that hang,
 * reject, throw synchronously or give back garbage, through create and createStream, on the
 * scripted model and on the real openai SDK over loopback. Every wait is bounded: a hanging store
 * is raced against `bound`, and the model's read bound (`cacheTimeoutMs`) is a few milliseconds.
 */
const bound = 2_000;
const readBoundMs = 20;

const ask: ChatModelInput = { messages: [user("Status?")] };
const never = () => new Promise<never>(() => undefined);

/** Every unhandled rejection in this file fails the test it happened in (vitest would only fail the run). */
let unhandled: unknown[] = [];
const onUnhandled = (reason: unknown) => void unhandled.push(reason);
beforeAll(() => void process.on("unhandledRejection", onUnhandled));
afterAll(() => void process.off("unhandledRejection", onUnhandled));
afterEach(async () => {
  // A rejection is reported after the microtasks of the turn it happened in: let a few turns pass.
  await new Promise((resolve) => setTimeout(resolve, 20));
  const seen = unhandled;
  unhandled = [];
  expect(seen).toEqual([]);
});

/** A store of the parts given, the rest a working in-memory store; every operation counted. */
function storeWith(parts: Partial<Record<keyof ChatModelCache, (...args: never[]) => unknown>>) {
  const memory = new MemoryCache();
  const counts = { get: 0, set: 0, delete: 0 };
  const store: ChatModelCache = {
    get: (key) => (counts.get++, parts.get ? (parts.get as (key: string) => Promise<unknown>)(key) : memory.get(key)),
    set: (key, value, ttlMs) => (
      counts.set++,
      parts.set ? (parts.set as () => Promise<void>)() : memory.set(key, value, ttlMs)
    ),
    delete: (key) => (counts.delete++, parts.delete ? (parts.delete as () => Promise<void>)() : memory.delete(key)),
  };
  return { store, counts, memory };
}

/** A model answering every request with `text`, on `cache`, its warnings collected. */
function scripted(cache: ChatModelCache, text = "fresh", options: { cacheTimeoutMs?: number } = {}) {
  const model = new ScriptedChatModel(
    Array.from({ length: 50 }, () => textStep(text)),
    { cache, cacheTimeoutMs: readBoundMs, ...options },
  );
  return { model, warnings: warningsOf(model) };
}

function warningsOf(model: ChatModel): WarningEvent[] {
  const warnings: WarningEvent[] = [];
  model.emitter.on("warning", (event) => warnings.push(event));
  return warnings;
}

/** The call's outcome, or "still waiting" once `bound` has passed: a hang is a result, not a stuck test. */
async function within(model: ChatModel, input: ChatModelInput, mode: CallMode) {
  let timer: ReturnType<typeof setTimeout> | undefined;
  const started = performance.now();
  const outcome = await Promise.race([
    settleCall(model, input, mode),
    new Promise<"still waiting">((resolve) => (timer = setTimeout(() => resolve("still waiting"), bound))),
  ]);
  clearTimeout(timer);
  return { outcome, ms: performance.now() - started };
}

describe.each(callModes)("A cache store that misbehaves, through %s", (mode) => {
  describe.each([
    ["hangs", never],
    ["rejects", () => Promise.reject(new Error("READONLY You can't write against a read only replica."))],
    [
      "throws synchronously",
      () => {
        throw new Error("store closed");
      },
    ],
    ["resolves late", () => new Promise((resolve) => setTimeout(resolve, 300))],
    [
      "returns a thenable whose then throws",
      () => ({
        then() {
          throw new Error("broken thenable");
        },
      }),
    ],
  ] as const)("on set(): one that %s", (_label, set) => {
    it("should return the provider's answer without waiting for the write, and report the write", async () => {
      const { store, counts } = storeWith({ set });
      const { model, warnings } = scripted(store);
      const { outcome, ms } = await within(model, ask, mode);
      expect(outcome).toMatchObject({ output: { text: "fresh", meta: { cacheHit: false } } });
      expect(counts.set).toBe(1);
      // Not a speed target: far under the 300 ms write and the read bound's multiples, to show nothing waited for it.
      expect(ms).toBeLessThan(250);
      // Each is reported, once: a write still unsettled after the read bound too.
      await vi.waitFor(() =>
        expect(warnings).toEqual([
          expect.objectContaining({ code: "cache-error", message: expect.stringMatching(/^cache write /) }),
        ]),
      );
    });
  });

  describe.each([
    ["hangs", never],
    ["rejects", () => Promise.reject(new Error("ECONNREFUSED"))],
    [
      "throws synchronously",
      () => {
        throw new TypeError("get is broken");
      },
    ],
  ] as const)("on get(): one that %s", (label, get) => {
    it("should treat the read as a miss, with a warning, and ask the provider", async () => {
      const { store } = storeWith({ get });
      const { model, warnings } = scripted(store);
      const { outcome } = await within(model, ask, mode);
      expect(outcome).toMatchObject({ output: { text: "fresh", meta: { cacheHit: false } } });
      expect(model.calls).toHaveLength(1);
      expect(warnings.map((warning) => warning.message)).toEqual([
        label === "hangs"
          ? `cache read did not answer within ${readBoundMs} ms, calling the provider`
          : expect.stringMatching(/^cache read failed, calling the provider: /),
      ]);
    });
  });

  it("should end a hanging read at once on the caller's abort, and at the call's timeout", async () => {
    const { store } = storeWith({ get: never });
    const { model } = scripted(store, "fresh", { cacheTimeoutMs: Infinity });
    const controller = new AbortController();
    setTimeout(() => controller.abort(), 10);
    const aborted = await within(model, { ...ask, signal: controller.signal }, mode);
    expect(aborted.outcome).toMatchObject({ error: { name: "AbortError" } });
    const timedOut = await within(model, { ...ask, timeout: 30 }, mode);
    expect(timedOut.outcome).toMatchObject({ error: { name: "TimeoutError" } });
    expect(model.calls).toHaveLength(0);
  });

  it("should answer after a delete that hangs or throws, when it drops an entry it cannot serve", async () => {
    for (const remove of [never, () => Promise.reject(new Error("no")), () => assertNever()]) {
      const { store, counts } = storeWith({ get: () => Promise.resolve({ output: "garbage" }), delete: remove });
      const { model, warnings } = scripted(store);
      const { outcome } = await within(model, ask, mode);
      expect(outcome).toMatchObject({ output: { text: "fresh" } });
      expect(counts.delete).toBe(1);
      expect(warnings[0]?.message).toMatch(/^cache entry dropped, calling the provider: its output is a string/);
    }
  });

  it("should share one request among concurrent identical calls while the store hangs on both get and set", async () => {
    const { store } = storeWith({ get: never, set: never });
    const { model } = scripted(store);
    const results = await Promise.all(Array.from({ length: 5 }, () => within(model, ask, mode)));
    for (const { outcome } of results) expect(outcome).toMatchObject({ output: { text: "fresh" } });
    expect(model.calls).toHaveLength(1);
  });

  it("should never write a failed call", async () => {
    const { store, counts } = storeWith({});
    const model = new ScriptedChatModel([errorStep({ statusCode: 400, message: "bad request" })], { cache: store });
    const { outcome } = await within(model, ask, mode);
    expect(ChatModelError.isInstance((outcome as { error?: unknown }).error)).toBe(true);
    await new Promise((resolve) => setTimeout(resolve, 10));
    expect(counts.set).toBe(0);
  });

  it("should warn once per outage, and again after the store has recovered", async () => {
    let down = true;
    const { store } = storeWith({ set: () => (down ? Promise.reject(new Error("down")) : Promise.resolve()) });
    const { model, warnings } = scripted(store);
    const settled = async () => new Promise((resolve) => setTimeout(resolve, 5));
    for (let index = 0; index < 3; index++) await within(model, { messages: [user(`q${index}`)] }, mode);
    await settled();
    expect(warnings).toHaveLength(1);
    down = false;
    await within(model, { messages: [user("recovered")] }, mode);
    await settled();
    down = true;
    await within(model, { messages: [user("down again")] }, mode);
    await settled();
    expect(warnings).toHaveLength(2);
  });

  it("should keep what a store's error says short, without a URL's password, whatever was thrown", async () => {
    const thrown = [
      new Error(`connect ECONNREFUSED redis://default:s3cr3t-PASSWORD@10.0.0.7:6379 ${"x".repeat(100_000)}`),
      Object.defineProperty(new Error(), "message", {
        get: () => {
          throw new Error("getter");
        },
      }),
      Object.create(null) as unknown,
    ];
    for (const error of thrown) {
      const { store } = storeWith({ get: () => Promise.reject(error), set: () => Promise.reject(error) });
      const { model, warnings } = scripted(store);
      const { outcome } = await within(model, ask, mode);
      expect(outcome).toMatchObject({ output: { text: "fresh" } });
      await vi.waitFor(() => expect(warnings).toHaveLength(2));
      for (const { message } of warnings) {
        expect(message).not.toContain("s3cr3t-PASSWORD");
        expect(message.length).toBeLessThan(500);
      }
    }
  });
});

function assertNever(): never {
  throw new Error("delete throws synchronously");
}

const lookup: ToolDefinition = {
  name: "lookup",
  // No additionalProperties: false, so the schema itself would let a `__proto__` member through.
  inputSchema: { type: "object", properties: { city: { type: "string" } }, required: ["city"] },
};

/** A store that keeps JSON text, as Redis or SQLite behind Keyv do: what it gives back is JSON.parse's (own `__proto__` keys included). */
function jsonStore() {
  const texts = new Map<string, string>();
  const store: ChatModelCache = {
    get: async (key) => {
      const text = texts.get(key);
      return text === undefined ? undefined : (JSON.parse(text) as unknown);
    },
    set: async (key, value) => void texts.set(key, JSON.stringify(value)),
    delete: async (key) => void texts.delete(key),
  };
  return { store, texts };
}

describe.each(callModes)("Entries read back from a store, through %s", (mode) => {
  const toolAsk: ChatModelInput = { messages: [user("Weather?")], tools: [lookup] };

  it("should strip own __proto__ and constructor.prototype members from cached tool arguments, as a fresh call does", async () => {
    const { store, texts } = jsonStore();
    const hostile = { city: "Paris", nested: { deep: true } };
    const model = new ScriptedChatModel([toolCallStep("lookup", hostile, { id: "call_1" })], { cache: store });
    const first = await settleCall(model, toolAsk, mode);
    expect(first.output?.toolCalls[0]?.args).toEqual(hostile);
    // Poison every copy of the arguments in the stored text, as a JSON store could hand back.
    const [key] = [...texts.keys()];
    const poisoned = texts
      .get(key!)!
      .replaceAll(
        '"nested":{"deep":true}',
        '"nested":{"deep":true,"__proto__":{"admin":true}},"__proto__":{"admin":true},"constructor":{"prototype":{"admin":true}}',
      );
    expect(poisoned).not.toBe(texts.get(key!));
    texts.set(key!, poisoned);

    const hit = await settleCall(model, toolAsk, mode);
    expect(hit.output?.meta.cacheHit).toBe(true);
    const served = [
      hit.output!.toolCalls[0]!.args,
      (hit.output!.message.content as { type: string; args?: object }[]).find((part) => part.type === "tool-call")!
        .args!,
      ...hit.chunks.flatMap((chunk) => (chunk.type === "tool-call" ? [chunk.toolCall.args] : [])),
    ];
    expect(served.length).toBeGreaterThanOrEqual(2);
    for (const args of served) {
      expect(Object.hasOwn(args, "__proto__")).toBe(false);
      expect(Object.hasOwn(args, "constructor")).toBe(false);
      expect(Object.hasOwn((args as { nested: object }).nested, "__proto__")).toBe(false);
      expect((args as { admin?: unknown }).admin).toBeUndefined();
      expect(args).toEqual(hostile);
    }
  });

  it("should strip them from what a Keyv store serialising to JSON gives back", async () => {
    const strings = new Map<string, unknown>();
    const model = new ScriptedChatModel([toolCallStep("lookup", { city: "Paris" }, { id: "call_1" })], {
      cache: new KeyvCache(new Keyv({ store: strings })),
    });
    await settleCall(model, toolAsk, mode);
    expect(strings.size).toBe(1);
    for (const [key, text] of strings)
      strings.set(key, String(text).replaceAll('{"city":"Paris"}', '{"city":"Paris","__proto__":{"admin":true}}'));
    const hit = await settleCall(model, toolAsk, mode);
    expect(hit.output?.meta.cacheHit).toBe(true);
    const args = hit.output!.toolCalls[0]!.args;
    expect(Object.hasOwn(args, "__proto__")).toBe(false);
    expect(args).toEqual({ city: "Paris" });
  });

  it.each([
    ["a tool the call does not have", (text: string) => text.replaceAll('"name":"lookup"', '"name":"rm_rf"')],
    ["arguments the schema refuses", (text: string) => text.replaceAll('"city":"Paris"', '"city":42')],
    ["arguments that are a list", (text: string) => text.replaceAll('{"city":"Paris"}', '["Paris"]')],
    ["tool calls that are a string", (text: string) => text.replace(/"toolCalls":\[[^\]]*\]/, '"toolCalls":"x"')],
  ])("should drop an entry with %s and ask the provider", async (_label, damage) => {
    const { store, texts } = jsonStore();
    const model = new ScriptedChatModel(
      [toolCallStep("lookup", { city: "Paris" }, { id: "call_1" }), toolCallStep("lookup", { city: "Oslo" })],
      { cache: store },
    );
    await settleCall(model, toolAsk, mode);
    const [key] = [...texts.keys()];
    const damaged = damage(texts.get(key!)!);
    expect(damaged).not.toBe(texts.get(key!));
    texts.set(key!, damaged);
    const again = await settleCall(model, toolAsk, mode);
    expect(again.output).toMatchObject({ meta: { cacheHit: false }, toolCalls: [{ args: { city: "Oslo" } }] });
    expect(model.calls).toHaveLength(2);
  });

  it("should serve no stored tool call under toolChoice none, nor two where one is allowed", async () => {
    const memory = new MemoryCache();
    await settleCall(
      new ScriptedChatModel([toolCallStep("lookup", { city: "Paris" })], { cache: memory }),
      toolAsk,
      mode,
    );
    const stored = (await memory.get(memory.keys()[0]!)) as {
      output: { toolCalls: object[]; message: { content: object[] } };
    };
    const twice = structuredClone(stored);
    twice.output.toolCalls.push({ ...twice.output.toolCalls[0]!, id: "call_2" });
    twice.output.message.content.push({ ...twice.output.toolCalls[0]!, id: "call_2" });
    // A store that answers every key with one entry (another process's, a shared prefix): it must still fit the call.
    for (const [entry, input] of [
      [stored, { ...toolAsk, toolChoice: "none" }],
      [twice, toolAsk],
    ] as const) {
      const { store } = storeWith({ get: () => Promise.resolve(structuredClone(entry)) });
      const model = new ScriptedChatModel([textStep("asked again")], { cache: store });
      expect((await settleCall(model, input, mode)).output).toMatchObject({
        text: "asked again",
        meta: { cacheHit: false },
      });
    }
  });

  it("should drop what a store gives back that cannot be copied as data, and what nests absurdly deep", async () => {
    let deep: unknown = {};
    for (let level = 0; level < 2_000; level++) deep = { a: deep };
    const values = [
      new Proxy({}, { get: () => assertNever() }),
      {
        output: {
          get message() {
            return assertNever();
          },
        },
      },
      { output: () => undefined },
      { output: deep },
      Symbol("entry"),
      12n,
    ];
    for (const value of values) {
      const { store } = storeWith({ get: () => Promise.resolve(value) });
      const { model, warnings } = scripted(store);
      const { outcome } = await within(model, ask, mode);
      expect(outcome).toMatchObject({ output: { text: "fresh", meta: { cacheHit: false } } });
      // A Proxy fails on the read already (its `then` is looked up): a miss all the same.
      expect(warnings[0]?.message).toMatch(/^cache (entry dropped|read failed), calling the provider: /);
    }
  });

  it("should turn any damage to a stored entry into a valid answer, never another error (property)", async () => {
    const memory = new MemoryCache();
    const seed = new ScriptedChatModel([toolCallStep("lookup", { city: "Paris" }, { reasoning: "thinking" })], {
      cache: memory,
    });
    await settleCall(seed, toolAsk, mode);
    const [key] = memory.keys();
    const valid = structuredClone(await memory.get(key!));
    await fc.assert(
      fc.asyncProperty(mutation, async (change) => {
        await memory.set(key!, mutated(valid, change));
        const model = new ScriptedChatModel([toolCallStep("lookup", { city: "Oslo" })], {
          cache: memory,
          cacheTimeoutMs: readBoundMs,
        });
        // A mutation that leaves the entry valid (a count, an id) may be served; anything else asks the provider.
        const { outcome } = await within(model, toolAsk, mode);
        if (outcome === "still waiting" || !outcome.output) return false;
        const { output } = outcome;
        expect(output.meta.cacheHit).toBe(model.calls.length === 0);
        expect(typeof output.text).toBe("string");
        expect(output.toolCalls).toHaveLength(1);
        const args = output.toolCalls[0]!.args as { city: unknown };
        expect(typeof args.city).toBe("string");
        // The message hands out the calls the output lists, as checked.
        const parts = output.message.content as { type: string }[];
        expect(parts.filter((part) => part.type === "tool-call")).toEqual(output.toolCalls);
        return true;
      }),
      { numRuns: 150, seed: 255 },
    );
  });
});

type Path = (string | number)[];

function pathsOf(value: unknown, prefix: Path = []): Path[] {
  if (value === null || typeof value !== "object") return [];
  const entries = Array.isArray(value) ? value.map((item, index) => [index, item] as const) : Object.entries(value);
  return entries.flatMap(([key, child]) => [[...prefix, key], ...pathsOf(child, [...prefix, key])]);
}

const replacement = fc.oneof(
  fc.constantFrom(null, undefined, "x", "", 0, -1, 1.5, NaN, Infinity, true, [], {}, [null], ["x"], { x: 1 }),
  fc.constantFrom({ __proto__: null }, JSON.parse('{"__proto__":{"x":1}}') as unknown, new Date(0), new Map()),
  // What a store of live objects (or one shared with other code) may hold: no data at all, chunks that are no chunks.
  fc.constantFrom<unknown>(
    () => 1,
    Symbol("x"),
    Object.defineProperty({}, "text", { enumerable: true, get: () => assertNever() }),
    { type: "tool-call" },
    { type: "tool-call", toolCall: null },
    { type: "text-delta" },
    { type: "reasoning-delta", text: 1 },
    { type: "finish" },
    { type: "reset", reason: "x" },
  ),
  fc.anything({ maxDepth: 2 }),
);
const mutation = fc.record({ pick: fc.nat(), value: replacement });

/** A copy of the entry with the value at one of its paths replaced (or removed, for undefined). */
function mutated(valid: unknown, { pick, value }: { pick: number; value: unknown }): unknown {
  const paths = pathsOf(valid);
  const path = paths[pick % paths.length]!;
  const copy = structuredClone(valid) as Record<string | number, unknown>;
  let parent = copy;
  for (const key of path.slice(0, -1)) parent = parent[key] as Record<string | number, unknown>;
  const last = path.at(-1)!;
  if (value === undefined && !Array.isArray(parent)) delete parent[last];
  else parent[last] = value;
  return copy;
}

describe("A cache store that misbehaves, under the real openai SDK over loopback", () => {
  const server = useLoopbackServer();
  const model = (cache: ChatModelCache) =>
    new OpenAIChatModel("gpt-4o-mini", {
      baseURL: `${server.url}/v1`,
      apiKey: "sk-cache-store-test-0123456789",
      cache,
      cacheTimeoutMs: readBoundMs,
      retry: { maxRetries: 0 },
    });

  it.each(callModes)("should answer through %s while the store hangs on every operation", async (mode) => {
    server.handle((request, response) => sendTextReply(request, response, "from the server"));
    const { store } = storeWith({ get: never, set: never, delete: never });
    const openAI = model(store);
    const warnings = warningsOf(openAI);
    const { outcome } = await within(openAI, ask, mode);
    expect(outcome).toMatchObject({ output: { text: "from the server", meta: { cacheHit: false } } });
    expect(server.requests).toHaveLength(1);
    await vi.waitFor(() =>
      expect(warnings.map((warning) => warning.message)).toContainEqual(
        expect.stringMatching(/^cache write did not settle within 20 ms/),
      ),
    );
  });

  it.each(callModes)("should strip a JSON store's own __proto__ argument keys through %s", async (mode) => {
    server.handle((_request, response) => {
      response.writeHead(200, { "content-type": "application/json" });
      response.end(
        JSON.stringify({
          id: "c",
          object: "chat.completion",
          created: 1,
          model: "gpt-4o-mini",
          choices: [
            {
              index: 0,
              finish_reason: "tool_calls",
              message: {
                role: "assistant",
                content: null,
                tool_calls: [
                  { id: "call_1", type: "function", function: { name: "lookup", arguments: '{"city":"Paris"}' } },
                ],
              },
            },
          ],
        }),
      );
    });
    const { store, texts } = jsonStore();
    const openAI = model(store);
    const input: ChatModelInput = { messages: [user("Weather?")], tools: [lookup], toolChoice: "required" };
    // Stored by create (the server sends JSON only), served to either mode.
    await settleCall(openAI, input, "create");
    const [key] = [...texts.keys()];
    texts.set(key!, texts.get(key!)!.replaceAll('{"city":"Paris"}', '{"city":"Paris","__proto__":{"admin":true}}'));
    const hit = await settleCall(openAI, input, mode);
    expect(hit.output?.meta.cacheHit).toBe(true);
    const args = hit.output!.toolCalls[0]!.args;
    expect(Object.hasOwn(args, "__proto__")).toBe(false);
    expect(args).toEqual({ city: "Paris" });
    expect(server.requests).toHaveLength(1);
  });
});
