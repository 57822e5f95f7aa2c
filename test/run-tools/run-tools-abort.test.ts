import { getEventListeners } from "node:events";
import { describe, expect, it } from "vitest";
import { z } from "zod";
import type { Message } from "../../src/index.js";
import { defineTool, streamTools } from "../../src/index.js";
import { ScriptedChatModel, textStep, toolCallStep, toolCallsStep } from "../../src/testing/index.js";
import { runErrorIn, runIn, runModes } from "../support/run-tools-modes.js";

const messages: Message[] = [{ role: "user", content: "Check INC-001." }];

/** A promise settled from outside, so a test decides when a tool returns. */
function deferred<T = void>() {
  let resolve!: (value: T) => void;
  const promise = new Promise<T>((settle) => (resolve = settle));
  return { promise, resolve };
}

/** A tool that ignores its signal and returns only when released; it records what its signal did. */
function stuckTool() {
  const release = deferred<string>();
  const started = deferred();
  const seen = { signal: undefined as AbortSignal | undefined, abortedWhileRunning: false };
  const tool = defineTool({
    name: "lookup_incident",
    inputSchema: z.object({ incident_id: z.string() }),
    execute: async (_args, { signal }) => {
      seen.signal = signal;
      signal.addEventListener("abort", () => (seen.abortedWhileRunning = true));
      started.resolve();
      return release.promise;
    },
  });
  return { tool, release, started, seen };
}

describe.each(runModes)("%s aborted", (mode) => {
  it("should pass the abort to a running tool and reject at once, without waiting for the tool", async () => {
    const { tool, release, started, seen } = stuckTool();
    const controller = new AbortController();
    const model = new ScriptedChatModel([toolCallStep("lookup_incident", { incident_id: "INC-001" }), textStep("x")]);
    const running = runErrorIn(mode, { model, messages, tools: [tool], signal: controller.signal });
    await started.promise;
    controller.abort();
    const error = await running; // the tool has not returned: it is released only below
    release.resolve("too late");

    expect(error.reason).toBe("aborted");
    expect((error.cause as Error).name).toBe("AbortError");
    expect(seen.abortedWhileRunning).toBe(true);
    expect(seen.signal?.aborted).toBe(true);
    expect(error.messages).toEqual(messages);
    expect(error.steps).toEqual([]);
    expect(model.calls).toHaveLength(1);
  });

  it("should reject with reason aborted when the abort comes during a model call", async () => {
    const controller = new AbortController();
    const model = new ScriptedChatModel([textStep("late", { delayMs: 60_000 })]);
    const running = runErrorIn(mode, { model, messages, tools: [], signal: controller.signal });
    setTimeout(() => controller.abort(new Error("the user left")), 5);
    const error = await running;

    expect(error.reason).toBe("aborted");
    expect((error.cause as Error).name).toBe("AbortError");
    expect(((error.cause as Error).cause as Error).message).toBe("the user left");
  });

  it("should make no model call with a signal already aborted", async () => {
    const model = new ScriptedChatModel([textStep("never")]);
    const error = await runErrorIn(mode, { model, messages, tools: [], signal: AbortSignal.abort() });
    expect(error.reason).toBe("aborted");
    expect(model.calls).toHaveLength(0);
  });

  it("should leave no listener on the caller's signal after the run", async () => {
    const controller = new AbortController();
    const { tool, release } = stuckTool();
    release.resolve("ok");
    const model = new ScriptedChatModel([
      toolCallStep("lookup_incident", { incident_id: "INC-001" }),
      textStep("done"),
    ]);
    await runIn(mode, { model, messages, tools: [tool], signal: controller.signal });
    expect(getEventListeners(controller.signal, "abort")).toHaveLength(0);
  });

  it("should abort the other tools of the step when one throws with toolErrors 'throw'", async () => {
    const { tool: stuck, release, started, seen } = stuckTool();
    const failing = defineTool({
      name: "page_oncall",
      inputSchema: z.object({}),
      execute: async () => {
        await started.promise;
        throw new Error("pager down");
      },
    });
    const model = new ScriptedChatModel(
      [
        toolCallsStep([
          { name: "lookup_incident", args: { incident_id: "INC-001" } },
          { name: "page_oncall", args: {} },
        ]),
      ],
      { allowParallelToolCalls: true },
    );
    const error = await runErrorIn(mode, { model, messages, tools: [stuck, failing], toolErrors: "throw" });
    release.resolve("too late");

    expect(error.reason).toBe("tool-error");
    expect(seen.abortedWhileRunning).toBe(true);
  });
});

describe("streamTools left early", () => {
  it("should abort the running tools and reject final() with reason aborted", async () => {
    const { tool, release, started, seen } = stuckTool();
    const model = new ScriptedChatModel([toolCallStep("lookup_incident", { incident_id: "INC-001" }), textStep("x")]);
    const stream = streamTools({ model, messages, tools: [tool] });
    const iterator = stream[Symbol.asyncIterator]();
    // Read up to the model's finish chunk: the tool starts on the next read.
    for (let part = await iterator.next(); !part.done; part = await iterator.next()) {
      if (part.value.type === "finish") break;
    }
    const reading = iterator.next();
    await started.promise;
    await iterator.return!();
    release.resolve("too late");
    await reading.catch(() => undefined);

    expect(seen.abortedWhileRunning).toBe(true);
    await expect(stream.final()).rejects.toMatchObject({ name: "RunError", reason: "aborted" });
  });
});

describe("streamTools closed while a model call is awaited", () => {
  it("should abort the model call and reject final() with reason aborted", async () => {
    const model = new ScriptedChatModel([textStep("late", { delayMs: 60_000 })]);
    const stream = streamTools({ model, messages, tools: [] });
    const iterator = stream[Symbol.asyncIterator]();
    expect((await iterator.next()).value).toEqual({ type: "step-start", stepIndex: 0 });
    const reading = iterator.next();
    await iterator.return!();
    await expect(reading).rejects.toMatchObject({ name: "RunError", reason: "aborted" });
    await expect(stream.final()).rejects.toMatchObject({ reason: "aborted" });
  });
});
