// docs/cache.md:145-146 and 185-186 — `cacheTtlMs: Infinity` means no expiry, and reaches a Keyv
// store as Keyv's "no expiry" (so it overrides a Keyv's own default ttl); without it, the cache's own.
import Keyv from "keyv";
import { describe, expect, it } from "vitest";
import { KeyvCache, MemoryCache } from "../../../src/index.js";
import { ScriptedChatModel, textStep } from "../../../src/testing/index.js";
import { callModes, runCall, user } from "../../support/run-modes.js";

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

describe.each(callModes)("cacheTtlMs through %s", (mode) => {
  it("should keep an answer past the Keyv's own ttl when cacheTtlMs is Infinity", async () => {
    const keyv = new Keyv({ ttl: 40 });
    const model = new ScriptedChatModel([textStep("kept"), textStep("asked again")], {
      cache: new KeyvCache(keyv),
      cacheTtlMs: Infinity,
    });
    await runCall(model, { messages: [user("q")] }, mode);
    await sleep(120);
    const { output } = await runCall(model, { messages: [user("q")] }, mode);
    expect(output.text).toBe("kept");
    expect(output.meta.cacheHit).toBe(true);
  });

  it("should leave the Keyv's own ttl in force without cacheTtlMs", async () => {
    const keyv = new Keyv({ ttl: 40 });
    const model = new ScriptedChatModel([textStep("first"), textStep("asked again")], { cache: new KeyvCache(keyv) });
    await runCall(model, { messages: [user("q")] }, mode);
    expect((await runCall(model, { messages: [user("q")] }, mode)).output.meta.cacheHit).toBe(true);
    await sleep(120);
    const { output } = await runCall(model, { messages: [user("q")] }, mode);
    expect(output.text).toBe("asked again");
    expect(output.meta.cacheHit).toBe(false);
  });

  it("should pass Keyv 0 (its no-expiry) for Infinity and whole milliseconds otherwise", async () => {
    const ttls: unknown[] = [];
    const keyv = new Keyv({ ttl: 40 });
    const set = keyv.set.bind(keyv);
    keyv.set = ((key: string, value: unknown, ttl?: number) => {
      ttls.push(ttl);
      return set(key, value, ttl);
    }) as typeof keyv.set;
    await runCall(
      new ScriptedChatModel([textStep("a")], { cache: new KeyvCache(keyv), cacheTtlMs: Infinity }),
      { messages: [user("1")] },
      mode,
    );
    await runCall(
      new ScriptedChatModel([textStep("a")], { cache: new KeyvCache(keyv), cacheTtlMs: 1500.2 }),
      { messages: [user("2")] },
      mode,
    );
    await runCall(
      new ScriptedChatModel([textStep("a")], { cache: new KeyvCache(keyv) }),
      { messages: [user("3")] },
      mode,
    );
    expect(ttls).toEqual([0, 1501, undefined]);
  });

  it("should keep an answer past a MemoryCache's own ttlMs when cacheTtlMs is Infinity", async () => {
    const model = new ScriptedChatModel([textStep("kept"), textStep("asked again")], {
      cache: new MemoryCache({ ttlMs: 40 }),
      cacheTtlMs: Infinity,
    });
    await runCall(model, { messages: [user("q")] }, mode);
    await sleep(120);
    const { output } = await runCall(model, { messages: [user("q")] }, mode);
    expect(output.text).toBe("kept");
  });
});
