import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { z } from "zod";
import {
  ChatModelError,
  FallbackError,
  ProviderError,
  createRouter,
  runTools,
  streamTools,
  defineTool,
  type ChatModelOutput,
  type RouterStrategy,
  type WarningEvent,
} from "../../src/index.js";
import {
  ScriptedChatModel,
  errorStep,
  streamStep,
  textStep,
  toolCallStep,
  type ScriptedStep,
} from "../../src/testing/index.js";
import type { ErrorSpec } from "../../src/testing/scripted-steps.js";
import { callModes, runCall, settleCall, user, type CallMode } from "../support/run-modes.js";

const ask = { messages: [user("Hello?")] };
const noRetry = { retry: { maxRetries: 0 } };

/** A member that answers every call with its own id (as many calls as `count`). */
function member(modelId: string, count = 50, steps: (index: number) => ScriptedStep = () => textStep(modelId)) {
  return new ScriptedChatModel(
    Array.from({ length: count }, (_, index) => steps(index)),
    { modelId, ...noRetry },
  );
}

/** A step that answers once `gate` resolves: the call stays in flight until then. */
function heldStep(gate: Promise<void>, text: string): ScriptedStep {
  return async () => {
    await gate;
    return textStep(text);
  };
}

function gate(): { promise: Promise<void>; open: () => void } {
  let open!: () => void;
  const promise = new Promise<void>((resolve) => (open = resolve));
  return { promise, open };
}

const failing = (error: ErrorSpec, mode: CallMode): ScriptedStep =>
  mode === "create" ? errorStep(error) : streamStep([], { error });

const answeredBy = async (model: ReturnType<typeof createRouter>, mode: CallMode, times: number) => {
  const names: string[] = [];
  for (let index = 0; index < times; index++) names.push((await runCall(model, ask, mode)).output.meta.model.modelId);
  return names;
};

const count = (names: readonly string[]) =>
  names.reduce<Record<string, number>>((counts, name) => ({ ...counts, [name]: (counts[name] ?? 0) + 1 }), {});

describe("createRouter", () => {
  describe.each(callModes)("through %s", (mode) => {
    it("should spread calls evenly over the members with round-robin", async () => {
      const members = [member("a"), member("b"), member("c")];
      const model = createRouter(members, { strategy: "round-robin" });
      const names = await answeredBy(model, mode, 9);
      expect(count(names)).toEqual({ a: 3, b: 3, c: 3 });
      expect(members.map((each) => each.calls.length)).toEqual([3, 3, 3]);
      expect(names.slice(0, 3)).toEqual(["a", "b", "c"]);
    });

    it("should send every call to the first member with ordered, the default", async () => {
      const members = [member("a"), member("b")];
      const names = await answeredBy(createRouter(members), mode, 4);
      expect(count(names)).toEqual({ a: 4 });
      expect(members[1]!.calls).toHaveLength(0);
    });

    it("should avoid a member whose call is still in flight with least-busy", async () => {
      const held = gate();
      const a = member("a", 10, (index) => (index === 0 ? heldStep(held.promise, "a (held)") : textStep("a")));
      const b = member("b");
      const model = createRouter([a, b], { strategy: "least-busy" });
      const first = runCall(model, ask, mode);
      // a holds one call: every call made meanwhile goes to b.
      await expect.poll(() => a.calls.length).toBe(1);
      const meanwhile = await answeredBy(model, mode, 4);
      expect(count(meanwhile)).toEqual({ b: 4 });
      held.open();
      expect((await first).output.text).toBe("a (held)");
      // Nothing in flight: the first member again.
      expect(await answeredBy(model, mode, 1)).toEqual(["a"]);
      expect([a.calls.length, b.calls.length]).toEqual([2, 4]);
    });

    it("should prefer the fast member with lowest-latency once both were measured", async () => {
      const held = gate();
      const slow = member("slow", 10, (index) => (index === 0 ? heldStep(held.promise, "slow") : textStep("slow")));
      const fast = member("fast");
      const model = createRouter([slow, fast], { strategy: "lowest-latency" });
      // Warm calls: each member is measured once; slow's call outlasts fast's, which starts later and ends first.
      const slowCall = runCall(model, ask, mode);
      await expect.poll(() => slow.calls.length).toBe(1);
      expect(await answeredBy(model, mode, 1)).toEqual(["fast"]);
      held.open();
      await slowCall;
      const names = await answeredBy(model, mode, 6);
      expect(count(names)).toEqual({ fast: 6 });
      expect([slow.calls.length, fast.calls.length]).toEqual([1, 7]);
    });

    it("should prefer the member that failed least with fewest-failures", async () => {
      const a = member("a", 20, (index) => (index === 0 ? failing({ statusCode: 500 }, mode) : textStep("a")));
      const b = member("b", 20, (index) => (index === 1 ? failing({ statusCode: 503 }, mode) : textStep("b")));
      const model = createRouter([a, b], { strategy: "fewest-failures", cooldownMs: 0 });
      // a fails once (b answers); b, with fewer failures, goes first until it fails too (then the tie goes to a).
      expect(await answeredBy(model, mode, 3)).toEqual(["b", "a", "a"]);
      expect(await answeredBy(model, mode, 3)).toEqual(["a", "a", "a"]);
      expect([a.calls.length, b.calls.length]).toEqual([6, 2]);
    });

    it("should spread calls over every member with random", async () => {
      const members = [member("a", 60), member("b", 60), member("c", 60)];
      const names = await answeredBy(createRouter(members, { strategy: "random" }), mode, 60);
      // Each member has a (2/3)^60 chance of no call at all: a member never called means no random choice.
      expect(Object.keys(count(names)).sort()).toEqual(["a", "b", "c"]);
      expect(members.reduce((sum, each) => sum + each.calls.length, 0)).toBe(60);
    });

    it("should rest a failed member for cooldownMs whatever the strategy, and not call it meanwhile", async () => {
      const a = member("a", 10, (index) => (index === 0 ? failing({ statusCode: 500 }, mode) : textStep("a")));
      const b = member("b");
      const model = createRouter([a, b], { strategy: "round-robin", cooldownMs: 60_000 });
      const names = await answeredBy(model, mode, 5);
      expect(names).toEqual(["b", "b", "b", "b", "b"]);
      expect(a.calls).toHaveLength(1);
    });

    it("should rest a member for a 429's Retry-After when it is longer than cooldownMs", async () => {
      const retryAfter = failing({ statusCode: 429, headers: { "retry-after": "120" } }, mode);
      const a = member("a", 10, (index) => (index === 0 ? retryAfter : textStep("a")));
      const b = member("b", 10, (index) => (index === 1 ? failing({ statusCode: 500 }, mode) : textStep("b")));
      const model = createRouter([a, b], { cooldownMs: 0 });
      expect(await answeredBy(model, mode, 1)).toEqual(["b"]);
      // a rests for its Retry-After though cooldownMs is 0: the next call goes to b first, and to a only when b fails.
      const moves: string[] = [];
      model.emitter.on("fallback", (event) => {
        if (event.failed) moves.push(`${event.failed.modelId} -> ${event.next.modelId}`);
      });
      expect((await runCall(model, ask, mode)).output.meta.model.modelId).toBe("a");
      expect(moves).toEqual(["b -> a"]);
      expect([a.calls.length, b.calls.length]).toEqual([2, 2]);
    });

    it("should not move on after an error another member would repeat, nor rest the member for it", async () => {
      const a = member("a", 10, (index) => (index === 0 ? failing({ statusCode: 401 }, mode) : textStep("a")));
      const b = member("b");
      const model = createRouter([a, b], { strategy: "fewest-failures" });
      const { error } = await settleCall(model, ask, mode);
      expect(ProviderError.isInstance(error) && error.reason).toBe("authentication");
      expect(b.calls).toHaveLength(0);
      expect(await answeredBy(model, mode, 1)).toEqual(["a"]);
    });

    it("should name every member and list each error when they all fail", async () => {
      const members = ["a", "b", "c"].map((id, index) =>
        member(id, 1, () => failing({ statusCode: [500, 429, 503][index]!, message: `${id} is down` }, mode)),
      );
      const { error } = await settleCall(createRouter(members, { strategy: "round-robin" }), ask, mode);
      expect(FallbackError.isInstance(error)).toBe(true);
      expect(ChatModelError.isInstance(error)).toBe(true);
      const failure = error as unknown as FallbackError;
      expect(failure.errors).toHaveLength(3);
      expect(failure.errors.map((each) => (each as ProviderError).statusCode)).toEqual([500, 429, 503]);
      for (const id of ["a", "b", "c"]) expect(failure.message).toContain(`scripted ${id}: `);
    });
  });

  it("should hold, for any failures and any strategy, that each member is asked at most once a call and the result names who answered or every member's error", async () => {
    const outcome = fc.constantFrom<"ok" | number>("ok", 429, 500, 503, 400, 401);
    await fc.assert(
      fc.asyncProperty(
        fc.array(outcome, { minLength: 1, maxLength: 5 }),
        fc.constantFrom<RouterStrategy>(
          "ordered",
          "round-robin",
          "random",
          "least-busy",
          "lowest-latency",
          "fewest-failures",
        ),
        fc.constantFrom<CallMode>("create", "createStream"),
        async (outcomes, strategy, mode) => {
          const members = outcomes.map((each, index) =>
            member(`m${index}`, 1, () =>
              typeof each === "string"
                ? textStep(`m${index}`)
                : failing({ statusCode: each, message: `m${index} says ${each}` }, mode),
            ),
          );
          const { output, error } = await settleCall(createRouter(members, { strategy }), ask, mode);
          const asked = members.map((each) => each.calls.length);
          expect(asked.every((calls) => calls <= 1)).toBe(true);
          if (output) {
            const index = Number(output.meta.model.modelId.slice(1));
            expect(outcomes[index]).toBe("ok");
            expect(output.text).toBe(`m${index}`);
          } else if (FallbackError.isInstance(error)) {
            // Every member was asked, and each failed with an error another member could answer.
            expect(asked.every((calls) => calls === 1)).toBe(true);
            expect(outcomes.every((each) => each === 429 || each === 500 || each === 503)).toBe(true);
            expect(error.errors).toHaveLength(outcomes.length);
            for (let index = 0; index < outcomes.length; index++) expect(error.message).toContain(`scripted m${index}`);
          } else {
            // Stopped at an error any member would repeat.
            expect([400, 401]).toContain((error as ProviderError).statusCode);
          }
        },
      ),
      { numRuns: 150 },
    );
  });

  it("should be a model to runTools and streamTools, each step through the member that answers", async () => {
    const lookup = defineTool({
      name: "lookup",
      inputSchema: z.object({ id: z.string() }),
      execute: ({ id }) => `${id} is resolved`,
    });
    const a = new ScriptedChatModel([toolCallStep("lookup", { id: "INC-1" }), textStep("Resolved (a).")], {
      modelId: "a",
    });
    const b = new ScriptedChatModel([textStep("Resolved (b)."), toolCallStep("lookup", { id: "INC-2" })], {
      modelId: "b",
    });
    const model = createRouter([a, b], { strategy: "round-robin" });
    const run = await runTools({ model, messages: [user("Status of INC-1?")], tools: [lookup] });
    expect(run.steps.map((step) => step.output.meta.model.modelId)).toEqual(["a", "b"]);
    expect(run.text).toBe("Resolved (b).");
    const c = new ScriptedChatModel([toolCallStep("lookup", { id: "INC-2" }), textStep("Resolved (c).")], {
      modelId: "c",
    });
    const d = new ScriptedChatModel([textStep("Resolved (d).")], { modelId: "d" });
    const streamed = streamTools({
      model: createRouter([c, d], { strategy: "round-robin" }),
      messages: [user("Status of INC-2?")],
      tools: [lookup],
    });
    const result = await streamed.final();
    expect(result.steps.map((step: { output: ChatModelOutput }) => step.output.meta.model.modelId)).toEqual(["c", "d"]);
    expect(d.calls[0]!.messages.at(-1)).toMatchObject({ role: "tool", content: "INC-2 is resolved" });
  });

  it("should answer createStructure through the member that answers", async () => {
    const a = new ScriptedChatModel([errorStep({ statusCode: 503 })], { modelId: "a", ...noRetry });
    const b = new ScriptedChatModel([textStep('{"city": "Oslo"}')], { modelId: "b" });
    const { object, output } = await createRouter([a, b]).createStructure({
      messages: [user("Where?")],
      schema: z.object({ city: z.string() }),
    });
    expect(object).toEqual({ city: "Oslo" });
    expect(output.meta.model.modelId).toBe("b");
  });

  it("should forward its members' events of its calls, and keep each member's own capabilities", async () => {
    const pick = defineTool({ name: "pick", inputSchema: z.object({ n: z.number() }) });
    const a = new ScriptedChatModel([errorStep({ statusCode: 500 })], { modelId: "a", ...noRetry });
    const b = new ScriptedChatModel([textStep('{"name": "pick", "parameters": {"n": 1}}')], {
      modelId: "b",
      toolChoiceSupport: ["auto"],
    });
    const model = createRouter([a, b]);
    const events: string[] = [];
    for (const name of ["start", "fallback", "success", "finish"] as const)
      model.emitter.on(name, () => events.push(name));
    const output = await model.create({ ...ask, tools: [pick], toolChoice: pick });
    expect(output.meta).toMatchObject({ toolChoice: "response-format", model: { modelId: "b" } });
    // Its own start, its move from a to b, b's move down the ladder (forwarded), its own end.
    expect(events).toEqual(["start", "fallback", "fallback", "success", "finish"]);
    expect(a.toolChoiceSupport.has("single")).toBe(true);
  });

  it("should refuse what it cannot route with a TypeError naming the option", () => {
    const a = member("a");
    expect(() => createRouter([])).toThrow(/non-empty array of models/);
    expect(() => createRouter([{} as never])).toThrow(/non-empty array of models/);
    expect(() => createRouter([a], { strategy: "fastest" as never })).toThrow(/strategy must be one of/);
    expect(() => createRouter([a], { cooldownMs: Number.NaN })).toThrow(/cooldownMs/);
    expect(() => createRouter([a], { store: {} })).toThrow(/store must be a connected Redis client/);
    expect(() => createRouter([a], { storeTimeoutMs: 0 })).toThrow(/storeTimeoutMs/);
  });

  it("should route on its own health with one warning when the store hangs, never holding a call long", async () => {
    const hanging = { sendCommand: () => new Promise(() => {}) };
    const a = member("a", 10, (index) => (index === 0 ? errorStep({ statusCode: 500 }) : textStep("a")));
    const b = member("b");
    const model = createRouter([a, b], { store: hanging, storeTimeoutMs: 20, cooldownMs: 60_000 });
    const warnings: WarningEvent[] = [];
    model.emitter.on("warning", (event) => warnings.push(event));
    expect(await answeredBy(model, "create", 3)).toEqual(["b", "b", "b"]);
    expect(warnings.map((warning) => warning.code)).toEqual(["router-store"]);
    expect(warnings[0]!.message).toMatch(/did not answer/);
  });

  it("should route on its own health when the store throws or answers nonsense", async () => {
    for (const store of [
      {
        sendCommand: () => {
          throw new Error("connection closed");
        },
      },
      { sendCommand: () => Promise.resolve("OK") },
      { call: () => Promise.reject(new Error("NOSCRIPT")) },
    ]) {
      const a = member("a", 10, (index) => (index === 0 ? errorStep({ statusCode: 500 }) : textStep("a")));
      const model = createRouter([a, member("b")], { store, cooldownMs: 60_000 });
      expect(await answeredBy(model, "create", 3)).toEqual(["b", "b", "b"]);
    }
  });
});
