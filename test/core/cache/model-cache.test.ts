import { describe, expect, it } from "vitest";
import { z } from "zod";
import { MemoryCache, defineTool, type ChatModelCache, type ChatModelChunk } from "../../../src/index.js";
import { ScriptedChatModel, errorStep, streamStep, textStep, toolCallStep } from "../../../src/testing/index.js";
import { callModes, runCall, user } from "../../support/run-modes.js";

const weather = defineTool({ name: "weather", inputSchema: z.object({ city: z.string() }) });
const ask = { messages: [user("Weather in Oslo?")] };

describe("ChatModel cache", () => {
  describe.each(callModes)("through %s", (mode) => {
    it("should serve an identical call from the cache, as a copy, with cacheHit", async () => {
      const cache = new MemoryCache();
      const model = new ScriptedChatModel([textStep("Sunny.")], { cache });
      const hits: string[] = [];
      model.emitter.on("cacheHit", ({ key }) => hits.push(key));
      const first = await runCall(model, ask, mode);
      expect(first.output.meta.cacheHit).toBe(false);
      first.output.text = "mutated by the caller";
      first.output.toolCalls.push({ type: "tool-call", id: "x", name: "y", args: {} });
      const second = await runCall(model, ask, mode);
      expect(second.output.text).toBe("Sunny.");
      expect(second.output.toolCalls).toEqual([]);
      expect(second.output.meta.cacheHit).toBe(true);
      expect(hits).toHaveLength(1);
      expect(hits[0]).toMatch(/^keelson:[0-9a-f]{64}$/);
      expect(model.calls).toHaveLength(1);
    });

    it("should key on the whole normalised input, whatever the key order", async () => {
      const cache = new MemoryCache();
      const model = new ScriptedChatModel([textStep("a"), textStep("b"), textStep("c")], { cache });
      await runCall(model, { messages: [user("q")], parameters: { temperature: 0, topP: 1 } }, mode);
      await runCall(model, { parameters: { topP: 1, temperature: 0 }, messages: [{ content: "q", role: "user" }] }, mode);
      expect(model.calls).toHaveLength(1);
      await runCall(model, { messages: [user("q")], parameters: { temperature: 1, topP: 1 } }, mode);
      await runCall(model, { messages: [user("q")], tools: [weather], parameters: { temperature: 0, topP: 1 } }, mode);
      expect(model.calls).toHaveLength(3);
    });

    it("should never share answers between two models on one cache", async () => {
      const cache = new MemoryCache();
      const a = new ScriptedChatModel([textStep("from a")], { cache, modelId: "model-a" });
      const b = new ScriptedChatModel([textStep("from b")], { cache, modelId: "model-b" });
      expect((await runCall(a, ask, mode)).output.text).toBe("from a");
      expect((await runCall(b, ask, mode)).output.text).toBe("from b");
    });

    it("should bypass the cache with cache: false", async () => {
      const model = new ScriptedChatModel([textStep("one"), textStep("two")], { cache: new MemoryCache() });
      await runCall(model, ask, mode);
      expect((await runCall(model, { ...ask, cache: false }, mode)).output.text).toBe("two");
    });

    it("should never cache a failure, nor the reply a repair re-asked", async () => {
      const cache = new MemoryCache();
      const model = new ScriptedChatModel(
        [errorStep({ statusCode: 400 }), toolCallStep("nope", {}), toolCallStep("weather", { city: "Oslo" })],
        { cache },
      );
      await expect(runCall(model, { ...ask, tools: [weather] }, mode)).rejects.toMatchObject({ statusCode: 400 });
      expect(cache.size).toBe(0);
      const repaired = await runCall(model, { ...ask, tools: [weather] }, mode);
      expect(repaired.output.meta.attempts).toHaveLength(2);
      const hit = await runCall(model, { ...ask, tools: [weather] }, mode);
      expect(hit.output.toolCalls[0]!.name).toBe("weather");
      expect(hit.output.meta.cacheHit).toBe(true);
      expect(cache.size).toBe(1);
    });

    it("should drop a stored entry that no longer fits the call", async () => {
      const cache = new MemoryCache();
      const model = new ScriptedChatModel([toolCallStep("weather", { city: "Oslo" }), toolCallStep("weather", { city: "Rome" })], { cache });
      await runCall(model, { ...ask, tools: [weather] }, mode);
      const [key] = cache.keys();
      const stored = (await cache.get(key!)) as { output: { toolCalls: { args: unknown }[] } };
      stored.output.toolCalls[0]!.args = { city: 12 };
      await cache.set(key!, stored);
      const fresh = await runCall(model, { ...ask, tools: [weather] }, mode);
      expect(fresh.output.toolCalls[0]!.args).toEqual({ city: "Rome" });
      expect(fresh.output.meta.cacheHit).toBe(false);
    });

    it("should share one request among 100 identical concurrent calls", async () => {
      const model = new ScriptedChatModel([textStep("shared", { delayMs: 20 })], { cache: new MemoryCache() });
      const outputs = await Promise.all(Array.from({ length: 100 }, () => runCall(model, ask, mode)));
      expect(model.calls).toHaveLength(1);
      expect(new Set(outputs.map(({ output }) => output.text))).toEqual(new Set(["shared"]));
      expect(outputs.filter(({ output }) => output.meta.cacheHit)).toHaveLength(99);
    });

    it("should give every sharer the failure and store nothing when the shared request fails", async () => {
      const cache = new MemoryCache();
      const model = new ScriptedChatModel([errorStep({ statusCode: 401 }, { delayMs: 20 }), textStep("later")], { cache });
      const results = await Promise.allSettled(Array.from({ length: 5 }, () => runCall(model, ask, mode)));
      expect(results.every((result) => result.status === "rejected")).toBe(true);
      expect(model.calls).toHaveLength(1);
      expect(cache.size).toBe(0);
    });

    it("should let the other sharers go on when the caller who started the request aborts", async () => {
      const model = new ScriptedChatModel([textStep("slow", { delayMs: 50 }), textStep("second request")], { cache: new MemoryCache() });
      const controller = new AbortController();
      const first = runCall(model, { ...ask, signal: controller.signal }, mode);
      const second = runCall(model, ask, mode);
      setTimeout(() => controller.abort(), 10);
      await expect(first).rejects.toMatchObject({ name: "AbortError" });
      expect((await second).output.text).toBe("second request");
    });

    it("should keep working when the cache store fails", async () => {
      const broken: ChatModelCache = {
        get: () => Promise.reject(new Error("store down")),
        set: () => Promise.reject(new Error("store down")),
        delete: () => Promise.resolve(),
      };
      const model = new ScriptedChatModel([textStep("still answers")], { cache: broken });
      const warnings: string[] = [];
      model.emitter.on("warning", ({ message }) => warnings.push(message));
      expect((await runCall(model, ask, mode)).output.text).toBe("still answers");
      expect(warnings).toEqual([expect.stringContaining("cache read failed"), expect.stringContaining("cache write failed")]);
    });
  });

  it("should replay a cached stream chunk for chunk, with newToken events", async () => {
    const model = new ScriptedChatModel([streamStep(["Hel", "lo", "!"])], { cache: new MemoryCache() });
    const first = await runCall(model, ask, "createStream");
    const tokens: ChatModelChunk[] = [];
    model.emitter.on("newToken", ({ chunk }) => tokens.push(chunk));
    const replay = await runCall(model, ask, "createStream");
    expect(replay.chunks).toEqual(first.chunks);
    expect(tokens).toEqual(first.chunks);
    expect(replay.output.text).toBe("Hello!");
    expect(replay.output.meta.cacheHit).toBe(true);
  });

  it("should not store a stream a listener stopped early", async () => {
    const cache = new MemoryCache();
    const model = new ScriptedChatModel([streamStep(["a", "b", "c"]), streamStep(["x", "y"])], { cache });
    const stop = ({ abort }: { abort(): void }) => abort();
    model.emitter.on("newToken", stop);
    await runCall(model, ask, "createStream");
    model.emitter.off("newToken", stop);
    expect(cache.size).toBe(0);
    expect((await runCall(model, ask, "createStream")).output.text).toBe("xy");
  });
});
