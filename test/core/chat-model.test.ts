import { getEventListeners } from "node:events";
import { isAbortable } from "../../src/internal/abort.js";
import { describe, expect, it, vi } from "vitest";
import { z } from "zod";
import { defineTool, type ChatModelInput, type Message } from "../../src/index.js";
import { ScriptedChatModel, errorStep, streamStep, textStep, toolCallStep } from "../../src/testing/index.js";
import { callModes, runCall, user } from "../support/run-modes.js";

const weather = defineTool({ name: "weather", inputSchema: z.object({ city: z.string() }) });

/** The scripted model, as an adapter that accepts the shared inert signal for plain calls. */
class InertSignalScriptedModel extends ScriptedChatModel {
  protected override readonly plainCallsShareInertSignal = true;
}

describe("ChatModel", () => {
  describe.each(callModes)("through %s", (mode) => {
    it("should return the assistant message whole, with text, tool calls and usage", async () => {
      const model = new ScriptedChatModel([
        toolCallStep("weather", { city: "Paris" }, { id: "call_1", usage: { inputTokens: 7, outputTokens: 3 } }),
      ]);
      const { output } = await runCall(model, { messages: [user("Weather?")], tools: [weather] }, mode);
      expect(output.toolCalls).toEqual([{ type: "tool-call", id: "call_1", name: "weather", args: { city: "Paris" } }]);
      expect(output.message).toEqual({ role: "assistant", content: output.toolCalls });
      expect(output.finishReason).toBe("tool-calls");
      expect(output.usage).toEqual({ inputTokens: 7, outputTokens: 3, totalTokens: 10 });
      expect(output.meta).toMatchObject({ toolChoice: "native", cacheHit: false, repairs: [] });
      expect(output.meta.attempts).toHaveLength(1);
    });

    it("should emit start, success and finish in order, carrying the caller's input", async () => {
      const model = new ScriptedChatModel([textStep("hello there")]);
      const seen: string[] = [];
      const inputs: unknown[] = [];
      for (const name of ["start", "newToken", "success", "error", "finish"] as const) {
        model.emitter.on(name, (event: { input: unknown }) => {
          seen.push(name);
          inputs.push(event.input);
        });
      }
      const input: ChatModelInput = { messages: [user("hi")] };
      await runCall(model, input, mode);
      const withoutTokens = seen.filter((name) => name !== "newToken");
      expect(withoutTokens).toEqual(["start", "success", "finish"]);
      expect(seen.indexOf("newToken")).toBe(mode === "create" ? -1 : 1);
      expect(inputs.every((value) => value === input)).toBe(true);
    });

    it("should give every event of a call the call's id, different for calls in flight with one input", async () => {
      // The first request fails and is retried after the second call has been answered.
      const model = new ScriptedChatModel(
        [errorStep({ statusCode: 503, message: "busy" }), textStep("second"), textStep("first")],
        {
          retry: { initialDelayMs: 5, maxDelayMs: 5 },
        },
      );
      const seen: { event: string; callId: number }[] = [];
      for (const name of ["start", "retry", "success", "error", "finish"] as const) {
        model.emitter.on(name, (event: { callId: number }) => void seen.push({ event: name, callId: event.callId }));
      }
      const input: ChatModelInput = { messages: [user("hi")] };
      const [first, second] = await Promise.all([runCall(model, input, mode), runCall(model, input, mode)]);
      expect([first.output.text, second.output.text]).toEqual(["first", "second"]);
      const [firstId, secondId] = seen.filter(({ event }) => event === "start").map(({ callId }) => callId);
      expect(Number.isInteger(firstId) && firstId! > 0).toBe(true);
      expect(secondId).not.toBe(firstId);
      const eventsOf = (callId: number | undefined) =>
        seen.filter((entry) => entry.callId === callId).map(({ event }) => event);
      expect(eventsOf(firstId)).toEqual(["start", "retry", "success", "finish"]);
      expect(eventsOf(secondId)).toEqual(["start", "success", "finish"]);
      expect(seen).toHaveLength(7);
    });

    it("should emit error then finish and reject when the provider fails", async () => {
      const model = new ScriptedChatModel([errorStep({ statusCode: 400, message: "bad request" })]);
      const seen: string[] = [];
      model.emitter.on("error", () => seen.push("error"));
      model.emitter.on("finish", (event) => seen.push(event.error ? "finish(error)" : "finish"));
      await expect(runCall(model, { messages: [user("hi")] }, mode)).rejects.toMatchObject({
        name: "ProviderError",
        statusCode: 400,
      });
      expect(seen).toEqual(["error", "finish(error)"]);
    });

    it("should not break the call when a listener throws", async () => {
      const warning = vi.spyOn(process, "emitWarning").mockImplementation(() => undefined);
      const model = new ScriptedChatModel([textStep("fine")]);
      const later = vi.fn();
      model.emitter.on("start", () => {
        throw new Error("listener bug");
      });
      model.emitter.on("start", later);
      // An async listener that rejects must not become an unhandled rejection either.
      // eslint-disable-next-line @typescript-eslint/no-misused-promises
      model.emitter.on("success", async () => {
        throw new Error("async listener bug");
      });
      const { output } = await runCall(model, { messages: [user("hi")] }, mode);
      expect(output.text).toBe("fine");
      expect(later).toHaveBeenCalledTimes(1);
      await new Promise((resolve) => setImmediate(resolve));
      expect(warning).toHaveBeenCalledWith(expect.stringContaining("listener bug"), expect.anything());
      warning.mockRestore();
    });

    it("should name the event whose listener threw, when one listener serves two events", async () => {
      const warning = vi.spyOn(process, "emitWarning").mockImplementation(() => undefined);
      const model = new ScriptedChatModel([textStep("fine")]);
      const listener = (event: object) => {
        if ("output" in event) throw new Error("listener bug");
      };
      model.emitter.on("start", listener);
      model.emitter.on("finish", listener);
      await runCall(model, { messages: [user("hi")] }, mode);
      expect(warning).toHaveBeenCalledTimes(1);
      expect(warning).toHaveBeenCalledWith(expect.stringContaining("'finish' listener threw"), expect.anything());
      model.emitter.off("finish", listener);
      expect(model.emitter.listenerCount("finish")).toBe(0);
      expect(model.emitter.listenerCount("start")).toBe(1);
      warning.mockRestore();
    });

    it("should reject with AbortError before any request when the signal is already aborted", async () => {
      const model = new ScriptedChatModel([textStep("never")]);
      const controller = new AbortController();
      controller.abort();
      await expect(runCall(model, { messages: [user("hi")], signal: controller.signal }, mode)).rejects.toMatchObject({
        name: "AbortError",
      });
      expect(model.calls).toHaveLength(0);
    });

    it("should stop a slow request promptly when the signal aborts", async () => {
      const model = new ScriptedChatModel([textStep("late", { delayMs: 10_000 })]);
      const controller = new AbortController();
      setTimeout(() => controller.abort(), 20);
      const started = performance.now();
      await expect(runCall(model, { messages: [user("hi")], signal: controller.signal }, mode)).rejects.toMatchObject({
        name: "AbortError",
      });
      expect(performance.now() - started).toBeLessThan(2_000);
    });

    it("should leave no listener on a caller's long-lived signal, however many calls it serves", async () => {
      const model = new ScriptedChatModel(Array.from({ length: 50 }, () => textStep("ok")));
      const controller = new AbortController();
      for (let index = 0; index < 50; index++)
        await runCall(model, { messages: [user("hi")], signal: controller.signal, timeout: 60_000 }, mode);
      expect(getEventListeners(controller.signal, "abort")).toHaveLength(0);
    });

    it.each([
      { adapter: "an adapter of its own", Model: ScriptedChatModel, shares: false },
      { adapter: "an adapter that accepts the inert signal", Model: InertSignalScriptedModel, shares: true },
    ])(
      "should give each call a signal abortable only when something can end it, with $adapter",
      async ({ Model, shares }) => {
        const seen: AbortSignal[] = [];
        const step = () => (input: { signal: AbortSignal }) => {
          seen.push(input.signal);
          // An adapter that wires the signal to its SDK on every request and never unwires it,
          // by addEventListener or by onabort (as SDKs without addEventListener support do).
          input.signal.addEventListener("abort", () => undefined);
          input.signal.onabort = () => undefined;
          return textStep("ok");
        };
        const model = new Model([step(), step(), step()]);
        await runCall(model, { messages: [user("a")] }, mode);
        await runCall(model, { messages: [user("b")] }, mode);
        await runCall(model, { messages: [user("c")], timeout: 60_000 }, mode);
        expect(seen.map(isAbortable)).toEqual(mode === "create" ? [false, false, true] : [true, true, true]);
        // Streams can always be stopped, so each has its own; plain calls share the inert one if the adapter accepts it.
        expect(new Set(seen).size).toBe(mode === "create" && shares ? 2 : 3);
        if (mode === "create" && shares) {
          expect(seen[0]!.aborted).toBe(false);
          expect(getEventListeners(seen[0]!, "abort")).toHaveLength(0);
          expect(seen[0]!.onabort).toBeNull();
        }
      },
    );

    it("should end with a TimeoutError when the per-call timeout passes", async () => {
      const model = new ScriptedChatModel([textStep("late", { delayMs: 10_000 })]);
      await expect(runCall(model, { messages: [user("hi")], timeout: 30 }, mode)).rejects.toMatchObject({
        name: "TimeoutError",
      });
    });

    it("should never mutate the caller's messages or tools", async () => {
      const model = new ScriptedChatModel([toolCallStep("weather", '{"city": "Paris"'), textStep("ok")], {
        toolChoiceSupport: [],
      });
      const messages: Message[] = [{ role: "system", content: "be brief" }, user("Weather?")];
      const tools = [weather];
      const before = structuredClone(messages);
      await runCall(model, { messages, tools, toolChoice: "required" }, mode);
      expect(messages).toEqual(before);
      expect(tools).toEqual([weather]);
    });

    it("should merge default parameters with the call's own, the call's winning", async () => {
      const model = new ScriptedChatModel([textStep("x")], { parameters: { temperature: 0.2, maxTokens: 100 } });
      await runCall(model, { messages: [user("hi")], parameters: { maxTokens: 5, seed: 1 } }, mode);
      expect(model.calls[0]!.parameters).toEqual({ temperature: 0.2, maxTokens: 5, seed: 1 });
    });

    it("should reject malformed input with a TypeError naming the problem", async () => {
      const model = new ScriptedChatModel([]);
      await expect(runCall(model, { messages: [] }, mode)).rejects.toThrow(/non-empty array/);
      await expect(runCall(model, { messages: [{ role: "robot", content: "x" } as never] }, mode)).rejects.toThrow(
        /role/,
      );
      await expect(
        runCall(model, { messages: [user("x")], toolChoice: { type: "tool", name: "nope" }, tools: [weather] }, mode),
      ).rejects.toThrow(/not in input.tools/);
      expect(model.calls).toHaveLength(0);
    });
  });

  it("should call a create's listeners as they are at each call: once listeners once, removed ones never, with their context", async () => {
    const model = new ScriptedChatModel([textStep("a"), textStep("b"), textStep("c")]);
    const heard: string[] = [];
    const context = { name: "ctx" };
    const onFinish = function (this: { name: string }) {
      heard.push(`finish:${this.name}`);
    };
    model.emitter.once("start", () => heard.push("start-once"));
    model.emitter.on("finish", onFinish, context);
    expect(model.emitter.listening).toMatchObject({ start: true, finish: true, success: false });
    await model.create({ messages: [user("hi")] });
    expect(model.emitter.listening.start).toBe(false);

    model.emitter.on("success", ({ output }) => heard.push(`success:${output.text}`));
    await model.create({ messages: [user("hi")] });
    model.emitter.off("finish", onFinish, context);
    model.emitter.removeAllListeners("success");
    expect(model.emitter.listening).toMatchObject({ start: false, success: false, finish: false });
    await model.create({ messages: [user("hi")] });
    expect(heard).toEqual(["start-once", "finish:ctx", "success:b", "finish:ctx"]);
  });

  describe("createStream", () => {
    it("should deliver text chunks as they arrive and assemble them in final()", async () => {
      const model = new ScriptedChatModel([streamStep(["Hel", "lo", " world"])]);
      const { output, chunks } = await runCall(model, { messages: [user("hi")] }, "createStream");
      expect(
        chunks.filter((chunk) => chunk.type === "text-delta").map((chunk) => (chunk as { text: string }).text),
      ).toEqual(["Hel", "lo", " world"]);
      expect(chunks.at(-1)).toMatchObject({ type: "finish", finishReason: "stop" });
      expect(output.text).toBe("Hello world");
    });

    it("should drive the request from final() alone and refuse a second iteration", async () => {
      const model = new ScriptedChatModel([textStep("only final")]);
      const stream = model.createStream({ messages: [user("hi")] });
      expect((await stream.final()).text).toBe("only final");
      expect(() => stream[Symbol.asyncIterator]()).toThrow(/iterated once/);
    });

    it("should let a newToken listener stop the stream early and return the partial output", async () => {
      const model = new ScriptedChatModel([streamStep(["one ", "two ", "three ", "four"])]);
      model.emitter.on("newToken", ({ chunk, abort }) => {
        if (chunk.type === "text-delta" && chunk.text === "two ") abort();
      });
      const success = vi.fn();
      model.emitter.on("success", success);
      const { output } = await runCall(model, { messages: [user("count")] }, "createStream");
      expect(output.text).toBe("one two ");
      expect(output.finishReason).toBe("other");
      expect(success).toHaveBeenCalledTimes(1);
    });

    it("should send newToken to the listeners on at each chunk: added mid-stream, once, removed, or all removed", async () => {
      const model = new ScriptedChatModel([
        streamStep(["a", "b", "c", "d"]),
        streamStep(["e", "f"]),
        streamStep(["g"]),
        streamStep(["h"]),
      ]);
      const texts = (chunks: unknown[]) => chunks.map((chunk) => (chunk as { text?: string }).text);
      const late: unknown[] = [];
      const first: unknown[] = [];
      const stream = model.createStream({ messages: [user("hi")] });
      for await (const chunk of stream) {
        // Added after the first chunk arrived: it hears the rest.
        if (chunk.type === "text-delta" && chunk.text === "a") {
          model.emitter.on("newToken", ({ chunk: token }) => late.push(token));
          model.emitter.once("newToken", ({ chunk: token }) => first.push(token));
        }
      }
      expect(texts(late)).toEqual(["b", "c", "d"]);
      expect(texts(first)).toEqual(["b"]);

      const counted: unknown[] = [];
      const count = ({ chunk }: { chunk: unknown }) => counted.push(chunk);
      model.emitter.on("newToken", count);
      await model.createStream({ messages: [user("hi")] }).final();
      expect(texts(counted)).toEqual(["e", "f"]);
      model.emitter.off("newToken", count);
      await model.createStream({ messages: [user("hi")] }).final();
      expect(texts(counted)).toEqual(["e", "f"]);
      expect(texts(late)).toEqual(["b", "c", "d", "e", "f", "g"]);
      model.emitter.removeAllListeners();
      expect(model.emitter.listens("newToken")).toBe(false);
      await model.createStream({ messages: [user("hi")] }).final();
      expect(texts(late)).toHaveLength(6);
    });

    it("should merge interleaved tool-call deltas by index, with ids and names only in the first delta", async () => {
      const model = new ScriptedChatModel(
        [
          streamStep([
            { type: "tool-call-delta", index: 0, id: "call_a", name: "weather", argsDelta: "" },
            { type: "tool-call-delta", index: 1, id: "call_b", name: "weather", argsDelta: '{"ci' },
            { type: "tool-call-delta", index: 0, argsDelta: '{"city":' },
            { type: "tool-call-delta", index: 1, argsDelta: 'ty":"Rome"}' },
            { type: "tool-call-delta", index: 0, argsDelta: '"Oslo"}' },
            { type: "usage", usage: { inputTokens: 1, outputTokens: 1 } },
            { type: "usage", usage: { inputTokens: 9, outputTokens: 4 } },
            { type: "finish", finishReason: "tool-calls" },
          ]),
        ],
        { allowParallelToolCalls: true },
      );
      const { output, chunks } = await runCall(
        model,
        { messages: [user("two cities")], tools: [weather] },
        "createStream",
      );
      expect(output.toolCalls.map(({ id, args }) => [id, args])).toEqual([
        ["call_a", { city: "Oslo" }],
        ["call_b", { city: "Rome" }],
      ]);
      expect(output.usage).toEqual({ inputTokens: 9, outputTokens: 4, totalTokens: 13 });
      expect(chunks.filter((chunk) => chunk.type === "tool-call")).toHaveLength(2);
    });

    it("should keep reasoning apart from text", async () => {
      const model = new ScriptedChatModel([
        streamStep([{ type: "reasoning-delta", text: "think " }, "answer", { type: "reasoning-delta", text: "more" }]),
      ]);
      const { output } = await runCall(model, { messages: [user("q")] }, "createStream");
      expect(output.reasoning).toBe("think more");
      expect(output.text).toBe("answer");
      expect(output.message.content).toEqual([
        { type: "reasoning", text: "think more" },
        { type: "text", text: "answer" },
      ]);
    });

    it("should expose the chunks as a web ReadableStream", async () => {
      const model = new ScriptedChatModel([streamStep(["a", "b"])]);
      const reader = model
        .createStream({ messages: [user("q")] })
        .toReadableStream()
        .getReader();
      const texts: string[] = [];
      for (let next = await reader.read(); !next.done; next = await reader.read()) {
        if (next.value.type === "text-delta") texts.push(next.value.text);
      }
      expect(texts).toEqual(["a", "b"]);
    });

    it("should end as an abort (error then finish) when the consumer stops reading", async () => {
      const model = new ScriptedChatModel([streamStep(["a", "b", "c"])]);
      const events: string[] = [];
      model.emitter.on("error", ({ error }) => events.push(`error:${error.name}`));
      model.emitter.on("finish", () => events.push("finish"));
      for await (const chunk of model.createStream({ messages: [user("q")] })) {
        expect(chunk).toMatchObject({ type: "text-delta", text: "a" });
        break;
      }
      expect(events).toEqual(["error:AbortError", "finish"]);
    });
  });

  describe("clone", () => {
    it("should copy settings and the support set without sharing them", () => {
      const model = new ScriptedChatModel([], { toolChoiceSupport: ["auto", "required"], maxRepairAttempts: 5 });
      const copy = model.clone();
      expect(copy).toBeInstanceOf(ScriptedChatModel);
      expect([...copy.toolChoiceSupport]).toEqual(["auto", "required"]);
      expect(copy.maxRepairAttempts).toBe(5);
      copy.toolChoiceSupport.delete("required");
      expect(model.toolChoiceSupport.has("required")).toBe(true);
      expect(copy.emitter).not.toBe(model.emitter);
    });
  });
});

describe("ChatModel.clone of a scripted model", () => {
  it("should produce a working copy that answers from the same script", async () => {
    const model = new ScriptedChatModel([textStep("one"), textStep("two")]);
    expect((await model.create({ messages: [user("a")] })).text).toBe("one");
    const copy = model.clone();
    expect((await copy.create({ messages: [user("b")] })).text).toBe("two");
  });
});

describe("isAbortError", () => {
  it("should know an abort by the platform's names (adapters map their SDK's own to them)", async () => {
    const { isAbortError } = await import("../../src/internal/abort.js");
    expect(isAbortError(new DOMException("x", "AbortError"))).toBe(true);
    expect(isAbortError(new DOMException("x", "TimeoutError"))).toBe(true);
    expect(isAbortError(new Error("boom"))).toBe(false);
    expect(isAbortError("AbortError")).toBe(false);
  });
});
