import { describe, expect, it } from "vitest";
import {
  ChatModelError,
  MemoryCache,
  ProviderError,
  defineTool,
  wrapChatModel,
  type ChatModelChunk,
  type ChatModelMiddleware,
  type MiddlewareContext,
  type ProviderInput,
} from "../../../src/index.js";
import { ScriptedChatModel, errorStep, textStep, toolCallStep } from "../../../src/testing/index.js";
import { callModes, runCall, settleCall, user } from "../../support/run-modes.js";

const weather = defineTool({
  name: "get_weather",
  description: "Weather for a city",
  inputSchema: { type: "object", properties: { city: { type: "string" } }, required: ["city"] },
});

/** A middleware that notes what it saw, in order, under `label`. */
function audit(label: string, log: string[], contexts: MiddlewareContext[] = []): ChatModelMiddleware {
  return {
    name: label,
    transformInput(input, context) {
      log.push(`${label}:transform`);
      contexts.push(context);
      return input;
    },
    async wrapCreate({ next }) {
      log.push(`${label}:before`);
      const output = await next();
      log.push(`${label}:after`);
      return output;
    },
    async *wrapStream({ next }) {
      log.push(`${label}:before`);
      yield* next();
      log.push(`${label}:after`);
    },
  };
}

describe("ChatModelMiddleware", () => {
  describe.each(callModes)("through %s", (mode) => {
    it("should run the first listed outermost, around the provider, with the request's context", async () => {
      const log: string[] = [];
      const contexts: MiddlewareContext[] = [];
      const model = new ScriptedChatModel([textStep("Sunny")], {
        middleware: [audit("outer", log, contexts), audit("inner", log)],
      });
      const input = { messages: [user("Weather?")] };
      const { output } = await runCall(model, input, mode);
      expect(output.text).toBe("Sunny");
      expect(log).toEqual([
        "outer:transform",
        "outer:before",
        "inner:transform",
        "inner:before",
        "inner:after",
        "outer:after",
      ]);
      expect(contexts[0]).toMatchObject({ providerId: "scripted", modelId: model.modelId, attempt: 1, rung: "native" });
      expect(contexts[0]!.callInput).toBe(input);
      expect(contexts[0]!.callId).toBeGreaterThan(0);
      expect(contexts[0]!.signal).toBeInstanceOf(AbortSignal);
    });

    it("should send what transformInput returns, and leave the caller's messages as they were", async () => {
      const model = new ScriptedChatModel([textStep("Bonjour")], {
        middleware: [
          {
            transformInput: (input) => ({
              ...input,
              messages: [{ role: "system", content: "Answer in French." }, ...input.messages],
              parameters: { ...input.parameters, temperature: 0 },
            }),
          },
        ],
      });
      const messages = [user("Hello")];
      await runCall(model, { messages }, mode);
      expect(model.calls[0]!.messages).toEqual([{ role: "system", content: "Answer in French." }, user("Hello")]);
      expect(model.calls[0]!.parameters).toMatchObject({ temperature: 0 });
      expect(messages).toEqual([user("Hello")]);
    });

    it("should read a middleware's own answer back like a provider's: tool calls repaired and validated", async () => {
      const mock: ChatModelMiddleware = {
        wrapCreate: async () => ({
          toolCalls: [{ name: "get_weather", args: '{"city": "Paris",}' }],
          finishReason: "tool-calls",
        }),
        async *wrapStream() {
          yield { type: "tool-call-delta", index: 0, name: "get_weather", argsDelta: '{"city": "Paris",}' };
          yield { type: "finish", finishReason: "tool-calls" };
        },
      };
      const model = new ScriptedChatModel([], { middleware: [mock] });
      const { output } = await runCall(model, { messages: [user("Weather in Paris?")], tools: [weather] }, mode);
      expect(output.toolCalls).toEqual([
        expect.objectContaining({
          id: expect.stringMatching(/^call_[a-z0-9]{8}$/),
          name: "get_weather",
          args: { city: "Paris" },
        }),
      ]);
      expect(output.meta.repairs.map((repair) => repair.kind)).toEqual(expect.arrayContaining(["missing-id"]));
      expect(output.meta.repairs.length).toBeGreaterThan(1);
      expect(model.calls).toEqual([]);
    });

    it("should re-ask when a middleware's answer fails validation, running it again with the next attempt", async () => {
      const attempts: number[] = [];
      const answers = [
        { name: "get_wether", args: { city: "Paris" } },
        { name: "get_weather", args: { city: "Paris" } },
      ];
      const mock: ChatModelMiddleware = {
        transformInput: (input, context) => (attempts.push(context.attempt), input),
        wrapCreate: async () => ({ toolCalls: [answers[attempts.length - 1]!] }),
        async *wrapStream() {
          const call = answers[attempts.length - 1]!;
          yield { type: "tool-call-delta", index: 0, name: call.name, argsDelta: JSON.stringify(call.args) };
          yield { type: "finish", finishReason: "tool-calls" };
        },
      };
      const model = new ScriptedChatModel([], { middleware: [mock] });
      const { output } = await runCall(
        model,
        { messages: [user("Weather?")], tools: [weather], toolChoice: "required" },
        mode,
      );
      expect(output.toolCalls[0]).toMatchObject({ name: "get_weather" });
      expect(attempts).toEqual([1, 2]);
      expect(output.meta.attempts).toHaveLength(2);
    });

    it("should retry a retryable ProviderError a middleware throws, as the provider's, and run once per request", async () => {
      const attempts: number[] = [];
      let failed = false;
      const flaky: ChatModelMiddleware = {
        transformInput(input, context) {
          attempts.push(context.attempt);
          if (!failed) {
            failed = true;
            throw new ProviderError("gateway busy", { statusCode: 503, isRetryable: true, reason: "server" });
          }
          return input;
        },
      };
      const model = new ScriptedChatModel([textStep("ok")], {
        middleware: [flaky],
        retry: { initialDelayMs: 0, maxDelayMs: 0 },
      });
      const { output } = await runCall(model, { messages: [user("Hi")] }, mode);
      expect(output.text).toBe("ok");
      expect(attempts).toEqual([1, 2]);
    });

    it("should reject with what a middleware throws when it is no ChatModelError, without retrying", async () => {
      class Refused extends Error {}
      const refusal = new Refused("not allowed");
      let runs = 0;
      const guard: ChatModelMiddleware = {
        transformInput: () => {
          runs++;
          throw refusal;
        },
      };
      const model = new ScriptedChatModel([textStep("ok")], { middleware: [guard] });
      const { error } = await settleCall(model, { messages: [user("Hi")] }, mode);
      expect(error).toBe(refusal);
      expect(ChatModelError.isInstance(error)).toBe(false);
      expect(runs).toBe(1);
    });

    it("should run none on a cache hit", async () => {
      const log: string[] = [];
      const model = new ScriptedChatModel([textStep("cached"), textStep("fresh")], {
        cache: new MemoryCache(),
        middleware: [audit("audit", log)],
      });
      const input = { messages: [user("Same question")] };
      await runCall(model, input, mode);
      log.length = 0;
      const { output } = await runCall(model, input, mode);
      expect(output.text).toBe("cached");
      expect(output.meta.cacheHit).toBe(true);
      expect(log).toEqual([]);
    });

    it("should fail with a TypeError naming the middleware when its answer is no reply", async () => {
      const broken = {
        name: "broken",
        wrapCreate: async () => undefined,
        wrapStream: () => undefined,
      } as unknown as ChatModelMiddleware;
      const model = new ScriptedChatModel([textStep("ok")], { middleware: [broken] });
      const { error } = await settleCall(model, { messages: [user("Hi")] }, mode);
      expect(error).toBeInstanceOf(TypeError);
      expect(error!.message).toMatch(/^broken's wrap(Create|Stream)/);
    });

    it("should fail with a TypeError naming the middleware when transformInput returns no provider input", async () => {
      const model = new ScriptedChatModel([textStep("ok")], {
        middleware: [{ name: "rewriter", transformInput: () => ({}) as ProviderInput }],
      });
      const { error } = await settleCall(model, { messages: [user("Hi")] }, mode);
      expect(error).toBeInstanceOf(TypeError);
      expect(error!.message).toMatch(/^rewriter's transformInput .* messages array/);
    });
  });

  it("should fail a streamed chunk a middleware makes up, naming the middleware", async () => {
    const model = new ScriptedChatModel([textStep("ok")], {
      middleware: [
        {
          name: "typo",
          async *wrapStream() {
            yield { type: "text", text: "hi" } as unknown as ChatModelChunk;
          },
        },
      ],
    });
    const { error } = await settleCall(model, { messages: [user("Hi")] }, "createStream");
    expect(error!.message).toMatch(/^typo's wrapStream yielded a "text" chunk/);
  });

  it("should refuse a middleware that is not one when the model is built", () => {
    expect(() => new ScriptedChatModel([], { middleware: [null as unknown as ChatModelMiddleware] })).toThrow(
      /middleware\[0\] must be an object/,
    );
    expect(
      () => new ScriptedChatModel([], { middleware: [{ wrapCreate: "no" } as unknown as ChatModelMiddleware] }),
    ).toThrow(/middleware\[0\]\.wrapCreate must be a function/);
  });

  it("should keep the rung in the context after the ladder fell back", async () => {
    const rungs: string[] = [];
    const model = new ScriptedChatModel([textStep('{"name":"get_weather","arguments":{"city":"Oslo"}}')], {
      toolChoiceSupport: ["auto", "none"],
      middleware: [{ transformInput: (input, context) => (rungs.push(context.rung), input) }],
    });
    const output = await model.create({ messages: [user("Weather?")], tools: [weather], toolChoice: "required" });
    expect(rungs).toEqual(["response-format"]);
    expect(model.calls[0]!.tools).toBeUndefined();
    expect(output.toolCalls[0]).toMatchObject({ name: "get_weather", args: { city: "Oslo" } });
  });
});

describe("wrapChatModel", () => {
  it("should return a copy of the same class and settings, its middleware outside the model's own", async () => {
    const log: string[] = [];
    const model = new ScriptedChatModel([textStep("one"), textStep("two")], {
      middleware: [audit("own", log)],
      allowParallelToolCalls: true,
      parameters: { temperature: 0.2 },
    });
    const wrapped = wrapChatModel(model, audit("added", log));
    expect(wrapped).toBeInstanceOf(ScriptedChatModel);
    expect(wrapped).not.toBe(model);
    expect(wrapped.allowParallelToolCalls).toBe(true);
    expect(wrapped.parameters).toEqual({ temperature: 0.2 });
    expect([...wrapped.toolChoiceSupport]).toEqual([...model.toolChoiceSupport]);
    expect(wrapped.middleware).toHaveLength(2);
    await wrapped.create({ messages: [user("Hi")] });
    expect(log).toEqual(["added:transform", "added:before", "own:transform", "own:before", "own:after", "added:after"]);
    log.length = 0;
    await model.create({ messages: [user("Hi")] });
    expect(log).toEqual(["own:transform", "own:before", "own:after"]);
    expect(model.middleware).toHaveLength(1);
  });

  it("should run a tool call step of the wrapped model through its middleware", async () => {
    const seen: string[] = [];
    const model = wrapChatModel(new ScriptedChatModel([toolCallStep("get_weather", { city: "Rome" })]), {
      async wrapCreate({ next }) {
        const output = await next();
        seen.push(...(output.toolCalls ?? []).map((call) => call.name));
        return output;
      },
    });
    const output = await model.create({ messages: [user("Rome?")], tools: [weather] });
    expect(seen).toEqual(["get_weather"]);
    expect(output.toolCalls[0]).toMatchObject({ args: { city: "Rome" } });
  });

  it("should retry a scripted transport error under a middleware, each request passing through it", async () => {
    const attempts: number[] = [];
    const model = wrapChatModel(
      new ScriptedChatModel([errorStep({ statusCode: 503 }), textStep("ok")], {
        retry: { initialDelayMs: 0, maxDelayMs: 0 },
      }),
      { transformInput: (input, context) => (attempts.push(context.attempt), input) },
    );
    expect((await model.create({ messages: [user("Hi")] })).text).toBe("ok");
    expect(attempts).toEqual([1, 2]);
  });
});
