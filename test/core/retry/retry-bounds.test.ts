import { describe, expect, it } from "vitest";
import { ProviderError } from "../../../src/index.js";
import { ScriptedChatModel, errorStep, textStep } from "../../../src/testing/index.js";
import { callModes, runCall, user } from "../../support/run-modes.js";

const answerAfter = (text: string, ms: number) => async () => {
  await new Promise((resolve) => setTimeout(resolve, ms));
  return textStep(text);
};

describe("ChatModel timeouts and waits past a timer's range", () => {
  describe.each(callModes)("through %s", (mode) => {
    // setTimeout holds 2^31-1 ms at most: past it Node fires after 1 ms.
    it.each([Infinity, 2 ** 31, 30 * 86_400_000])(
      "should treat a timeout of %s ms as no bound, not time out at once",
      async (timeout) => {
        const model = new ScriptedChatModel([answerAfter("ok", 30)]);
        const { output } = await runCall(model, { messages: [user("hi")], timeout }, mode);
        expect(output.text).toBe("ok");
      },
    );

    it("should wait a Retry-After longer than a timer's range, not retry after 1 ms", async () => {
      const model = new ScriptedChatModel(
        [errorStep({ statusCode: 429, headers: { "retry-after": String(30 * 86_400) } }), textStep("ok")],
        {
          retry: { maxRetryAfterMs: Infinity },
        },
      );
      const controller = new AbortController();
      model.emitter.on("retry", () => setTimeout(() => controller.abort(), 100));
      await expect(runCall(model, { messages: [user("hi")], signal: controller.signal }, mode)).rejects.toMatchObject({
        name: "AbortError",
      });
      expect(model.calls).toHaveLength(1);
    });

    it("should fail at once with the rate limit when Retry-After asks for longer than the call's timeout leaves", async () => {
      const model = new ScriptedChatModel([
        errorStep({ statusCode: 429, headers: { "retry-after": "30" } }),
        textStep("never"),
      ]);
      const retries: unknown[] = [];
      model.emitter.on("retry", (event) => retries.push(event));
      const started = performance.now();
      const error = await runCall(model, { messages: [user("hi")], timeout: 2_000 }, mode).catch(
        (caught: unknown) => caught,
      );
      expect(performance.now() - started).toBeLessThan(1_000);
      expect(ProviderError.isInstance(error)).toBe(true);
      expect(error).toMatchObject({ reason: "rate-limit", statusCode: 429, isRetryable: false, retryAfterMs: 30_000 });
      expect((error as Error).message).toMatch(/asked to wait 30 s.*timeout/);
      expect(retries).toHaveLength(0);
      expect(model.calls).toHaveLength(1);
    });

    it("should still wait a Retry-After that fits in the call's timeout", async () => {
      const model = new ScriptedChatModel([
        errorStep({ statusCode: 429, headers: { "retry-after-ms": "50" } }),
        textStep("ok"),
      ]);
      const { output } = await runCall(model, { messages: [user("hi")], timeout: 2_000 }, mode);
      expect(output.text).toBe("ok");
      expect(model.calls).toHaveLength(2);
    });
  });
});
