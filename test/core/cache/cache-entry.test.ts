import { describe, expect, it } from "vitest";
import { MemoryCache } from "../../../src/index.js";
import { ScriptedChatModel, streamStep, textStep } from "../../../src/testing/index.js";
import { callModes, runCall, user } from "../../support/run-modes.js";

const ask = { messages: [user("Status?")] };

/** A model whose answer to `ask` is stored, then replaced in the store by `damage` of what was stored. */
async function modelWithStored(damage: (entry: Record<string, unknown>) => unknown) {
  const cache = new MemoryCache();
  const model = new ScriptedChatModel([streamStep(["stored"]), textStep("fresh")], { cache });
  await runCall(model, ask, "createStream");
  const [key] = cache.keys();
  await cache.set(key!, damage((await cache.get(key!)) as Record<string, unknown>));
  return { model, cache };
}

describe("ChatModel cache reading an entry that is no answer", () => {
  describe.each(callModes)("through %s", (mode) => {
    it.each([
      [
        "an output without meta",
        (entry: Record<string, unknown>) => ({ output: { ...(entry.output as object), meta: undefined } }),
      ],
      [
        "an output whose text is no string",
        (entry: Record<string, unknown>) => ({ output: { ...(entry.output as object), text: 42 } }),
      ],
      ["chunks that are no list", (entry: Record<string, unknown>) => ({ ...entry, chunks: "garbage" })],
      ["chunks that are not chunks", (entry: Record<string, unknown>) => ({ ...entry, chunks: [null, 7] })],
    ])("should drop %s and ask the provider", async (_label, damage) => {
      const { model, cache } = await modelWithStored(damage);
      const { output, chunks } = await runCall(model, ask, mode);
      expect(output.text).toBe("fresh");
      expect(output.meta.cacheHit).toBe(false);
      if (mode === "createStream")
        expect(chunks.every((chunk) => typeof chunk === "object" && typeof chunk.type === "string")).toBe(true);
      expect(model.calls).toHaveLength(2);
      // What replaced it is the fresh answer, served on the next call.
      expect((await runCall(model, ask, mode)).output).toMatchObject({ text: "fresh", meta: { cacheHit: true } });
      expect(cache.size).toBe(1);
    });
  });
});
