import { afterEach, describe, expect, it, vi } from "vitest";
import { MemoryCache } from "../../../src/index.js";

describe("MemoryCache", () => {
  afterEach(() => vi.useRealTimers());

  it("should evict the least recently used entry past maxEntries", async () => {
    const cache = new MemoryCache({ maxEntries: 2 });
    await cache.set("a", 1);
    await cache.set("b", 2);
    await cache.get("a"); // a is now the most recently used
    await cache.set("c", 3);
    expect(await cache.get("a")).toBe(1);
    expect(await cache.get("b")).toBeUndefined();
    expect(await cache.get("c")).toBe(3);
    expect(cache.size).toBe(2);
  });

  it("should expire entries after their time to live, per entry or by default", async () => {
    vi.useFakeTimers();
    const cache = new MemoryCache({ ttlMs: 1_000 });
    await cache.set("default", 1);
    await cache.set("short", 2, 100);
    vi.advanceTimersByTime(500);
    expect(await cache.get("short")).toBeUndefined();
    expect(await cache.get("default")).toBe(1);
    vi.advanceTimersByTime(600);
    expect(await cache.get("default")).toBeUndefined();
  });

  it("should delete and reject bad options", async () => {
    const cache = new MemoryCache();
    await cache.set("k", "v");
    await cache.delete("k");
    expect(await cache.get("k")).toBeUndefined();
    expect(() => new MemoryCache({ maxEntries: 0 })).toThrow(/maxEntries/);
    expect(() => new MemoryCache({ ttlMs: -1 })).toThrow(/ttlMs/);
  });
});
