import { execFile } from "node:child_process";
import { randomUUID } from "node:crypto";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { promisify } from "node:util";
import KeyvRedis from "@keyv/redis";
import Keyv from "keyv";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { KeyvCache } from "../../../src/index.js";
import { ScriptedChatModel, textStep } from "../../../src/testing/index.js";
import { missingRedisMessage, redisForTests, type RedisForTests } from "../../support/redis-server.js";

const here = dirname(fileURLToPath(import.meta.url));
const redis = await redisForTests();

describe("KeyvCache", () => {
  it("should refuse something that is not a Keyv instance", () => {
    expect(() => new KeyvCache({} as never)).toThrow(/expects a Keyv instance/);
  });

  it("should work on Keyv's in-memory store", async () => {
    const cache = new KeyvCache(new Keyv());
    await cache.set("k", { output: 1 });
    expect(await cache.get("k")).toEqual({ output: 1 });
    await cache.delete("k");
    expect(await cache.get("k")).toBeUndefined();
  });

  it("should report a write its Keyv store failed, which Keyv swallows and answers false", async () => {
    // Keyv catches a store's error (without throwOnErrors) and resolves set() to false.
    const readOnly = {
      get: async () => undefined,
      set: async () => Promise.reject(new Error("READONLY replica")),
      delete: async () => true,
      clear: async () => {},
    };
    const model = new ScriptedChatModel([textStep("answered")], {
      cache: new KeyvCache(new Keyv({ store: readOnly })),
    });
    const warnings: string[] = [];
    model.emitter.on("warning", ({ code, message }) => warnings.push(`${code}: ${message}`));
    expect((await model.create({ messages: [{ role: "user", content: "q" }] })).text).toBe("answered");
    // The write is not waited for: its failure is reported once the store settles it.
    await vi.waitFor(() => expect(warnings).toEqual([expect.stringMatching(/^cache-error: cache write failed/)]), {
      timeout: 2_000,
    });
  });
});

describe.skipIf(!redis)("KeyvCache on a real Redis server", () => {
  if (!redis) it.skip(missingRedisMessage, () => {});
  let server: RedisForTests;
  let keyv: Keyv;

  beforeAll(() => {
    server = redis!;
    keyv = new Keyv({ store: new KeyvRedis(server.url), namespace: "keelson-test" });
  });
  afterAll(async () => {
    await keyv?.disconnect();
    await server?.stop();
  });

  it("should store, read, expire and delete entries in Redis", async () => {
    const cache = new KeyvCache(keyv);
    const key = `k-${randomUUID()}`;
    await cache.set(key, { output: { text: "hi" } });
    expect(await cache.get(key)).toEqual({ output: { text: "hi" } });
    await cache.set(`${key}-short`, { n: 1 }, 50);
    await new Promise((resolve) => setTimeout(resolve, 120));
    expect(await cache.get(`${key}-short`)).toBeUndefined();
    await cache.delete(key);
    expect(await cache.get(key)).toBeUndefined();
  });

  it.each([Infinity, 90_000.5])("should keep an answer in Redis with cacheTtlMs %s", async (cacheTtlMs) => {
    const model = new ScriptedChatModel([textStep("kept"), textStep("asked again")], {
      cache: new KeyvCache(keyv),
      cacheTtlMs,
    });
    const ask = { messages: [{ role: "user" as const, content: `Status of ${randomUUID()}?` }] };
    await model.create(ask);
    const again = await model.create(ask);
    expect(again.text).toBe("kept");
    expect(again.meta.cacheHit).toBe(true);
  });

  it("should share an answer between two processes through Redis", async () => {
    const question = `What is the status of ${randomUUID()}?`;
    const answer = "All systems nominal.";
    const script = join(here, "__fixtures__/answer-through-redis.ts");
    const { stdout } = await promisify(execFile)(
      process.execPath,
      ["--import", "tsx", script, server.url, question, answer],
      {
        cwd: join(here, "../../.."),
      },
    );
    expect(JSON.parse(stdout)).toEqual({ text: answer, cacheHit: false, calls: 1 });

    // This process has no script at all: a provider request would fail. The answer comes from Redis.
    const model = new ScriptedChatModel([], { cache: new KeyvCache(keyv) });
    const output = await model.create({ messages: [{ role: "user", content: question }] });
    expect(output.text).toBe(answer);
    expect(output.meta.cacheHit).toBe(true);
    expect(model.calls).toHaveLength(0);
  });
});
