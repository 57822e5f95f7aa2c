import { describe, expect, it } from "vitest";
import { ProviderError, type RetryEvent } from "../../../src/index.js";
import { ScriptedChatModel, errorStep, textStep } from "../../../src/testing/index.js";
import { callModes, runCall, user } from "../../support/run-modes.js";

const fast = { initialDelayMs: 1, maxDelayMs: 5 };

describe("ChatModel transport retries", () => {
  describe.each(callModes)("through %s", (mode) => {
    it.each([429, 408, 409, 500, 503])("should retry a %i and succeed", async (statusCode) => {
      const model = new ScriptedChatModel([errorStep({ statusCode }), textStep("ok")], { retry: fast });
      const retries: RetryEvent[] = [];
      model.emitter.on("retry", (event) => retries.push(event));
      const { output } = await runCall(model, { messages: [user("hi")] }, mode);
      expect(output.text).toBe("ok");
      expect(model.calls).toHaveLength(2);
      expect(retries).toHaveLength(1);
      expect(retries[0]).toMatchObject({ attempt: 1, error: { statusCode } });
      expect(retries[0]!.delayMs).toBeGreaterThanOrEqual(0);
    });

    it.each([400, 401, 403, 404, 422])("should not retry a %i", async (statusCode) => {
      const model = new ScriptedChatModel([errorStep({ statusCode }), textStep("never")], { retry: fast });
      await expect(runCall(model, { messages: [user("hi")] }, mode)).rejects.toMatchObject({ statusCode });
      expect(model.calls).toHaveLength(1);
    });

    it("should retry network errors (no status) and give up after maxRetries with the last error", async () => {
      const network = () => new ProviderError("socket hang up", { reason: "network" });
      const model = new ScriptedChatModel(
        [errorStep(network()), errorStep(network()), errorStep(network()), textStep("x")],
        { retry: fast },
      );
      await expect(runCall(model, { messages: [user("hi")] }, mode)).rejects.toMatchObject({ reason: "network" });
      expect(model.calls).toHaveLength(3);
    });

    it("should honour a per-call maxRetries", async () => {
      const model = new ScriptedChatModel([errorStep({ statusCode: 500 }), textStep("x")], { retry: fast });
      await expect(runCall(model, { messages: [user("hi")], maxRetries: 0 }, mode)).rejects.toMatchObject({
        statusCode: 500,
      });
      expect(model.calls).toHaveLength(1);
    });

    it("should wait as long as Retry-After says, in seconds or as retry-after-ms", async () => {
      for (const headers of [{ "retry-after": "0.15" }, { "retry-after-ms": "150" }]) {
        const model = new ScriptedChatModel([errorStep({ statusCode: 429, headers }), textStep("ok")]);
        const delays: number[] = [];
        model.emitter.on("retry", ({ delayMs }) => delays.push(delayMs));
        const started = performance.now();
        await runCall(model, { messages: [user("hi")] }, mode);
        expect(delays).toEqual([150]);
        expect(performance.now() - started).toBeGreaterThanOrEqual(140);
      }
    });

    it("should honour Retry-After given as an HTTP date", async () => {
      const date = new Date(Date.now() + 2_000).toUTCString();
      const model = new ScriptedChatModel(
        [errorStep({ statusCode: 503, headers: { "retry-after": date } }), textStep("ok")],
        {
          retry: { maxRetryAfterMs: 500 },
        },
      );
      // 2 s is past the 500 ms cap: the call fails at once and says how long the provider asked for.
      await expect(runCall(model, { messages: [user("hi")] }, mode)).rejects.toThrow(/asked to wait [12] s/);
      expect(model.calls).toHaveLength(1);
    });

    it("should fail at once when Retry-After is past the cap, saying how long was asked", async () => {
      const model = new ScriptedChatModel([
        errorStep({ statusCode: 429, headers: { "retry-after": "120" } }),
        textStep("x"),
      ]);
      const error = await runCall(model, { messages: [user("hi")] }, mode).catch((caught: unknown) => caught);
      expect(ProviderError.isInstance(error)).toBe(true);
      expect((error as ProviderError).message).toMatch(/asked to wait 120 s.*maxRetryAfterMs/);
      expect((error as ProviderError).retryAfterMs).toBe(120_000);
      expect(model.calls).toHaveLength(1);
    });

    it("should not retry a 429 marked not retryable (insufficient quota)", async () => {
      const model = new ScriptedChatModel([
        errorStep({ statusCode: 429, code: "insufficient_quota", isRetryable: false }),
        textStep("x"),
      ]);
      await expect(runCall(model, { messages: [user("hi")] }, mode)).rejects.toMatchObject({
        code: "insufficient_quota",
      });
      expect(model.calls).toHaveLength(1);
    });

    it("should end a retry wait promptly on abort", async () => {
      const model = new ScriptedChatModel([
        errorStep({ statusCode: 429, headers: { "retry-after": "30" } }),
        textStep("x"),
      ]);
      const controller = new AbortController();
      model.emitter.on("retry", () => setTimeout(() => controller.abort(), 10));
      const started = performance.now();
      await expect(runCall(model, { messages: [user("hi")], signal: controller.signal }, mode)).rejects.toMatchObject({
        name: "AbortError",
      });
      expect(performance.now() - started).toBeLessThan(1_000);
      expect(model.calls).toHaveLength(1);
    });
  });

  it("should not retry a stream that already delivered chunks, and carry the partial output", async () => {
    const { streamStep } = await import("../../../src/testing/index.js");
    const model = new ScriptedChatModel(
      [streamStep(["partial ", "text"], { error: { statusCode: 503 } }), textStep("never")],
      { retry: fast },
    );
    const seen: string[] = [];
    const stream = model.createStream({ messages: [user("hi")] });
    const error = await (async () => {
      for await (const chunk of stream) if (chunk.type === "text-delta") seen.push(chunk.text);
    })().catch((caught: unknown) => caught);
    expect(seen).toEqual(["partial ", "text"]);
    expect(error).toMatchObject({ statusCode: 503, partialOutput: { text: "partial text" } });
    expect(model.calls).toHaveLength(1);
  });
});
