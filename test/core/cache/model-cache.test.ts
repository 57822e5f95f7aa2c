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
      await runCall(
        model,
        { parameters: { topP: 1, temperature: 0 }, messages: [{ content: "q", role: "user" }] },
        mode,
      );
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

    it("should serve a tool call from the cache when the tool's schema transforms its arguments", async () => {
      const lookup = defineTool({
        name: "lookup",
        inputSchema: z.object({
          incident: z.string().transform((id) => id.toUpperCase()),
          limit: z.string().transform(Number),
        }),
      });
      const model = new ScriptedChatModel(
        [
          toolCallStep("lookup", { incident: "inc-1", limit: "3" }),
          toolCallStep("lookup", { incident: "inc-2", limit: "9" }),
        ],
        {
          cache: new MemoryCache(),
        },
      );
      const first = await runCall(model, { ...ask, tools: [lookup] }, mode);
      expect(first.output.toolCalls[0]!.args).toEqual({ incident: "INC-1", limit: 3 });
      const again = await runCall(model, { ...ask, tools: [lookup] }, mode);
      expect(again.output.meta.cacheHit).toBe(true);
      expect(again.output.toolCalls[0]!.args).toEqual({ incident: "INC-1", limit: 3 });
      expect(model.calls).toHaveLength(1);
    });

    it("should drop a stored entry that no longer fits the call", async () => {
      const cache = new MemoryCache();
      const model = new ScriptedChatModel(
        [toolCallStep("weather", { city: "Oslo" }), toolCallStep("weather", { city: "Rome" })],
        { cache },
      );
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
      const model = new ScriptedChatModel([errorStep({ statusCode: 401 }, { delayMs: 20 }), textStep("later")], {
        cache,
      });
      const results = await Promise.allSettled(Array.from({ length: 5 }, () => runCall(model, ask, mode)));
      expect(results.every((result) => result.status === "rejected")).toBe(true);
      expect(model.calls).toHaveLength(1);
      expect(cache.size).toBe(0);
    });

    it("should let the other sharers go on when the caller who started the request aborts", async () => {
      const model = new ScriptedChatModel([textStep("slow", { delayMs: 50 }), textStep("second request")], {
        cache: new MemoryCache(),
      });
      const controller = new AbortController();
      const first = runCall(model, { ...ask, signal: controller.signal }, mode);
      const second = runCall(model, ask, mode);
      setTimeout(() => controller.abort(), 10);
      await expect(first).rejects.toMatchObject({ name: "AbortError" });
      expect((await second).output.text).toBe("second request");
    });

    it.each([
      ["get", "TimeoutError"],
      ["set", "answered"],
    ] as const)(
      "should not let a store whose %s hangs hold the call past its timeout (%s)",
      async (hangs, expected) => {
        // A store that never answers, as @keyv/redis does while Redis is unreachable (commands queue until it reconnects).
        const hanging: ChatModelCache = {
          get: () => (hangs === "get" ? new Promise(() => undefined) : Promise.resolve(undefined)),
          set: () => (hangs === "set" ? new Promise(() => undefined) : Promise.resolve()),
          delete: () => Promise.resolve(),
        };
        const model = new ScriptedChatModel([textStep("answered")], { cache: hanging });
        const outcome = await Promise.race([
          runCall(model, { ...ask, timeout: 50 }, mode).then(
            () => "answered",
            (error: Error) => error.name,
          ),
          new Promise((resolve) => setTimeout(() => resolve("still waiting after 2 s"), 2_000)),
        ]);
        // A hanging read lasts until the call's timeout (50 ms, under the read's own bound); a write is never waited for.
        expect(outcome).toBe(expected);
      },
    );

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
      expect(warnings).toEqual([
        expect.stringContaining("cache read failed"),
        expect.stringContaining("cache write failed"),
      ]);
    });
  });

  it("should replay a cached stream chunk for chunk, with the newToken events of the live stream", async () => {
    const model = new ScriptedChatModel([streamStep(["Hel", "lo", "!"])], { cache: new MemoryCache() });
    const liveTokens: ChatModelChunk[] = [];
    const onLive = ({ chunk }: { chunk: ChatModelChunk }) => liveTokens.push(chunk);
    model.emitter.on("newToken", onLive);
    const first = await runCall(model, ask, "createStream");
    model.emitter.off("newToken", onLive);
    const tokens: ChatModelChunk[] = [];
    model.emitter.on("newToken", ({ chunk }) => tokens.push(chunk));
    const replay = await runCall(model, ask, "createStream");
    expect(replay.chunks).toEqual(first.chunks);
    // newToken carries the deltas only (docs/events.md), on a hit as on the live stream: never the finish.
    expect(liveTokens.map((chunk) => chunk.type)).toEqual(["text-delta", "text-delta", "text-delta"]);
    expect(tokens).toEqual(liveTokens);
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

  describe.each([
    ["a live stream", false],
    ["a cached replay", true],
  ])("through %s", (_label, cached) => {
    /** A model whose answer to `ask` is streamed live, or replayed from its cache. */
    async function modelFor(): Promise<ScriptedChatModel> {
      const model = new ScriptedChatModel([streamStep(["a", "b", "c"])], { cache: new MemoryCache() });
      if (cached) await runCall(model, ask, "createStream");
      return model;
    }

    it("should end with the AbortError when the caller's signal aborts mid-stream, after the chunks before it", async () => {
      const model = await modelFor();
      const controller = new AbortController();
      const events: string[] = [];
      model.emitter.on("success", () => events.push("success"));
      model.emitter.on("error", ({ error }) => events.push(`error:${error.name}`));
      const stream = model.createStream({ ...ask, signal: controller.signal });
      const texts: string[] = [];
      const reading = (async () => {
        for await (const chunk of stream) {
          if (chunk.type === "text-delta") texts.push(chunk.text);
          controller.abort();
        }
      })();
      await expect(reading).rejects.toMatchObject({ name: "AbortError" });
      await expect(stream.final()).rejects.toMatchObject({ name: "AbortError" });
      expect(texts).toEqual(["a"]);
      expect(events).toEqual(["error:AbortError"]);
    });

    it("should end with the TimeoutError when the per-call timeout passes while the consumer reads", async () => {
      const model = await modelFor();
      const stream = model.createStream({ ...ask, timeout: 20 });
      const reading = (async () => {
        for await (const _chunk of stream) await new Promise((resolve) => setTimeout(resolve, 15));
      })();
      await expect(reading).rejects.toMatchObject({ name: "TimeoutError" });
    });

    it("should let a newToken listener's abort() end the stream with the output so far", async () => {
      const model = await modelFor();
      model.emitter.on("newToken", ({ chunk, abort }) => {
        if (chunk.type === "text-delta" && chunk.text === "a") abort();
      });
      const { output, chunks } = await runCall(model, ask, "createStream");
      expect(chunks).toEqual([{ type: "text-delta", text: "a" }]);
      expect(output.text).toBe("a");
      expect(output.finishReason).toBe("other");
      expect(output.meta.cacheHit).toBe(cached);
    });
  });

  it("should send newToken no whole tool calls nor finish when a stream replays an answer stored by create", async () => {
    const model = new ScriptedChatModel([toolCallStep("weather", { city: "Oslo" })], { cache: new MemoryCache() });
    await model.create({ ...ask, tools: [weather] });
    const tokens: string[] = [];
    model.emitter.on("newToken", ({ chunk }) => tokens.push(chunk.type));
    const replay = await runCall(model, { ...ask, tools: [weather] }, "createStream");
    expect(replay.chunks.map((chunk) => chunk.type)).toEqual(["tool-call", "finish"]);
    expect(tokens).toEqual([]);
  });

  it("should keep a replay's final() apart from what its consumer changes in the chunks of an answer stored by create", async () => {
    const model = new ScriptedChatModel([toolCallStep("weather", { city: "Oslo" })], { cache: new MemoryCache() });
    await model.create({ ...ask, tools: [weather] });
    const stream = model.createStream({ ...ask, tools: [weather] });
    for await (const chunk of stream) {
      if (chunk.type === "tool-call") (chunk.toolCall.args as { city: string }).city = "edited by the consumer";
      if (chunk.type === "finish") chunk.usage!.inputTokens = 999;
    }
    const final = await stream.final();
    expect(final.meta.cacheHit).toBe(true);
    expect(final.toolCalls[0]!.args).toEqual({ city: "Oslo" });
    expect(final.message.content).toEqual([expect.objectContaining({ type: "tool-call", args: { city: "Oslo" } })]);
    expect(final.usage.inputTokens).toBe(10);
  });

  it("should store what the provider sent, not what the first stream's consumer changed in the chunks it was handed", async () => {
    const model = new ScriptedChatModel([toolCallStep("weather", { city: "Oslo" }), streamStep(["a", "b"])], {
      cache: new MemoryCache(),
    });
    const stream = model.createStream({ ...ask, tools: [weather] });
    for await (const chunk of stream) {
      // Agent code that edits the call it is handed in place (defaults, normalisation).
      if (chunk.type === "tool-call") (chunk.toolCall.args as { city: string }).city = "edited by the consumer";
    }
    expect((await stream.final()).toolCalls[0]!.args).toEqual({ city: "Oslo" });
    const hit = await model.create({ ...ask, tools: [weather] });
    expect(hit.meta.cacheHit).toBe(true);
    expect(hit.toolCalls[0]!.args).toEqual({ city: "Oslo" });

    for await (const chunk of model.createStream(ask))
      if (chunk.type === "text-delta") chunk.text = chunk.text.toUpperCase();
    const replay = await runCall(model, ask, "createStream");
    expect(replay.output.meta.cacheHit).toBe(true);
    expect(replay.chunks.filter((chunk) => chunk.type === "text-delta")).toEqual([
      { type: "text-delta", text: "a" },
      { type: "text-delta", text: "b" },
    ]);
  });
});
