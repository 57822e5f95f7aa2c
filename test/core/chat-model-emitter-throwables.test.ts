import fc from "fast-check";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import type { ChatModelEvents } from "../../src/index.js";
import { ProviderError } from "../../src/index.js";
import { errorStep, ScriptedChatModel, streamStep, textStep } from "../../src/testing/index.js";
import { callModes, settleCall, user } from "../support/run-modes.js";

/** Values a listener can throw that are not well-behaved Errors. */
const hostile: Record<string, () => unknown> = {
  "a null-prototype object": () => Object.create(null),
  "an Error whose message getter throws": () => {
    const error = new Error("hidden");
    Object.defineProperty(error, "message", {
      get() {
        throw new Error("message getter");
      },
    });
    return error;
  },
  "an object whose toString throws": () => ({
    toString() {
      throw new Error("toString");
    },
  }),
  "an object whose Symbol.toPrimitive throws": () => ({
    [Symbol.toPrimitive]() {
      throw new Error("toPrimitive");
    },
  }),
  "a revoked Proxy": () => {
    const { proxy, revoke } = Proxy.revocable({}, {});
    revoke();
    return proxy;
  },
  "a Proxy whose every trap throws": () =>
    new Proxy(
      {},
      {
        get() {
          throw new Error("get trap");
        },
        getPrototypeOf() {
          throw new Error("getPrototypeOf trap");
        },
      },
    ),
  "a symbol": () => Symbol("thrown"),
  undefined: () => undefined,
  null: () => null,
  "a plain Error": () => new Error("plain"),
  "a string": () => "a string",
};

type Delivery = "throws" | "rejects" | "thenable whose then throws" | "thenable whose then getter throws";
const deliveries: Delivery[] = ["throws", "rejects", "thenable whose then throws", "thenable whose then getter throws"];

function listenerFor(kind: string, delivery: Delivery): () => unknown {
  const thrown = () => hostile[kind]!();
  switch (delivery) {
    case "throws":
      return () => {
        throw thrown();
      };
    case "rejects":
      return async () => {
        await Promise.resolve();
        throw thrown();
      };
    case "thenable whose then throws":
      return () => ({
        then() {
          throw thrown();
        },
      });
    case "thenable whose then getter throws":
      return () => ({
        get then() {
          throw thrown();
        },
      });
  }
}

const events: (keyof ChatModelEvents)[] = [
  "start",
  "newToken",
  "retry",
  "repair",
  "fallback",
  "cacheHit",
  "warning",
  "success",
  "error",
  "finish",
];

let unhandled: unknown[];
const onUnhandled = (reason: unknown) => unhandled.push(reason);
beforeEach(() => {
  unhandled = [];
  process.on("unhandledRejection", onUnhandled);
  vi.spyOn(process, "emitWarning").mockImplementation(() => undefined);
});
afterEach(() => {
  process.off("unhandledRejection", onUnhandled);
  vi.restoreAllMocks();
});

/** Lets every pending rejection surface (Node reports an unhandled one after the microtask queue drains). */
const drain = () => new Promise((resolve) => setTimeout(resolve, 5));

describe("ChatModel listener isolation", () => {
  const listener = fc.record({
    event: fc.constantFrom(...events),
    kind: fc.constantFrom(...Object.keys(hostile)),
    delivery: fc.constantFrom(...deliveries),
  });

  describe.each(callModes)("through %s", (mode) => {
    it("should answer and settle whatever the listeners throw, with nothing unhandled (property)", async () => {
      await fc.assert(
        fc.asyncProperty(
          fc.array(listener, { minLength: 1, maxLength: 12 }),
          fc.boolean(),
          async (listeners, fails) => {
            // A 500 first, so `retry` fires; then the answer, or a 400 that ends the call.
            const model = new ScriptedChatModel(
              [
                errorStep({ statusCode: 500 }),
                fails ? errorStep({ statusCode: 400, message: "bad request" }) : streamStep(["Hel", "lo"]),
              ],
              { retry: { maxRetries: 1, initialDelayMs: 0, maxDelayMs: 0 } },
            );
            const seen: string[] = [];
            for (const event of events) model.emitter.on(event, () => void seen.push(event));
            for (const { event, kind, delivery } of listeners) model.emitter.on(event, listenerFor(kind, delivery));
            const { output, error } = await settleCall(model, { messages: [user("hi")] }, mode);
            await drain();
            if (fails) {
              expect(ProviderError.isInstance(error), String(error)).toBe(true);
              expect(error).toMatchObject({ statusCode: 400 });
            } else {
              expect(error).toBeUndefined();
              expect(output?.text).toBe("Hello");
            }
            expect(seen[0]).toBe("start");
            expect(seen.at(-1)).toBe("finish");
            expect(seen).toContain(fails ? "error" : "success");
            expect(unhandled).toEqual([]);
          },
        ),
        { numRuns: 150 },
      );
    });
  });

  it.each(Object.keys(hostile))("should report %s in a warning naming the event", async (kind) => {
    const model = new ScriptedChatModel([textStep("ok")]);
    model.emitter.on("finish", listenerFor(kind, "throws"));
    await expect(model.create({ messages: [user("hi")] })).resolves.toMatchObject({ text: "ok" });
    expect(process.emitWarning).toHaveBeenCalledWith(
      expect.stringContaining("'finish' listener threw"),
      expect.objectContaining({ code: "KEELSON_LISTENER_ERROR" }),
    );
  });

  it.each(callModes)("should not break a %s call when process.emitWarning itself throws", async (mode) => {
    vi.mocked(process.emitWarning).mockImplementation(() => {
      throw new Error("warnings are off");
    });
    const model = new ScriptedChatModel([streamStep(["o", "k"])]);
    for (const event of events) model.emitter.on(event, listenerFor("a null-prototype object", "rejects"));
    for (const event of events) model.emitter.on(event, listenerFor("a revoked Proxy", "throws"));
    const { output, error } = await settleCall(model, { messages: [user("hi")] }, mode);
    await drain();
    expect(error).toBeUndefined();
    expect(output?.text).toBe("ok");
    expect(unhandled).toEqual([]);
  });
});
