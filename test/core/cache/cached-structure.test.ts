import { describe, expect, it } from "vitest";
import { z } from "zod";
import { MemoryCache } from "../../../src/index.js";
import { ScriptedChatModel, textStep, toolCallStep } from "../../../src/testing/index.js";
import { callModes, runCall, user } from "../../support/run-modes.js";

const ask = { messages: [user("How many open incidents?")] };
// Three schemas that convert to one JSON Schema, and so to one cache key: what zod checks or makes differs.
const plain = z.object({ count: z.number() });
const labelled = z.object({ count: z.number().transform((count) => `${count} open`) });
const atLeastFive = z.object({ count: z.number().refine((count) => count >= 5, "at least 5") });

describe("ChatModel cache serving a structured answer", () => {
  describe.each([
    ["a JSON-schema response format", {}, (count: number) => textStep(`{"count": ${count}}`)],
    ["a forced tool", { supportsStructuredOutput: false }, (count: number) => toolCallStep("response", { count })],
  ] as const)("carried by %s", (_route, profile, reply) => {
    describe.each(callModes)("through %s", (mode) => {
      it("should give the object the schema of the call it serves makes, in either order", async () => {
        const model = new ScriptedChatModel([reply(3)], { ...profile, cache: new MemoryCache() });
        expect((await runCall(model, { ...ask, responseFormat: plain }, mode)).output.object).toEqual({ count: 3 });
        const served = await runCall(model, { ...ask, responseFormat: labelled }, mode);
        expect(served.output.meta.cacheHit).toBe(true);
        expect(served.output.object).toEqual({ count: "3 open" });
        expect((await runCall(model, { ...ask, responseFormat: plain }, mode)).output.object).toEqual({ count: 3 });
      });

      it("should not serve a stored object that the schema of the call rejects", async () => {
        const model = new ScriptedChatModel([reply(3), reply(7)], { ...profile, cache: new MemoryCache() });
        await runCall(model, { ...ask, responseFormat: plain }, mode);
        const { output } = await runCall(model, { ...ask, responseFormat: atLeastFive }, mode);
        expect(output.object).toEqual({ count: 7 });
        expect(output.meta.cacheHit).toBe(false);
      });

      it("should share one request among identical calls in flight whose schema transforms the object", async () => {
        const model = new ScriptedChatModel([reply(3)], { ...profile, cache: new MemoryCache() });
        const outputs = await Promise.all(
          [1, 2, 3].map(() => runCall(model, { ...ask, responseFormat: labelled }, mode)),
        );
        expect(outputs.map(({ output }) => output.object)).toEqual([1, 2, 3].map(() => ({ count: "3 open" })));
        expect(model.calls).toHaveLength(1);
      });

      it("should not share one request's object with an identical call in flight whose schema rejects it", async () => {
        const model = new ScriptedChatModel([reply(3), reply(7)], { ...profile, cache: new MemoryCache() });
        const [first, second] = await Promise.all([
          runCall(model, { ...ask, responseFormat: plain }, mode),
          runCall(model, { ...ask, responseFormat: atLeastFive }, mode),
        ]);
        expect(first.output.object).toEqual({ count: 3 });
        expect(second.output.object).toEqual({ count: 7 });
      });
    });
  });
});
