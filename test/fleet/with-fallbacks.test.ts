import { describe, expect, it } from "vitest";
import { z } from "zod";
import {
  ChatModelError,
  FallbackError,
  ProviderError,
  ToolCallError,
  defineTool,
  withFallbacks,
  type ChatModelEvents,
  type FallbackEvent,
  type RetryEvent,
} from "../../src/index.js";
import { ScriptedChatModel, errorStep, rawStep, streamStep, textStep, toolCallStep } from "../../src/testing/index.js";
import type { ErrorSpec } from "../../src/testing/scripted-steps.js";
import { callModes, runCall, settleCall, user } from "../support/run-modes.js";

const ask = { messages: [user("Hello?")] };
const noRetry = { retry: { maxRetries: 0 } };
const quickRetry = { retry: { maxRetries: 1, initialDelayMs: 1, maxDelayMs: 2 } };

function scripted(modelId: string, steps: ConstructorParameters<typeof ScriptedChatModel>[0], options = {}) {
  return new ScriptedChatModel(steps, { modelId, ...noRetry, ...options });
}

/** An error step, in the form each call mode fails with before its first chunk. */
const failing = (error: Error | ErrorSpec, mode: (typeof callModes)[number]) =>
  mode === "create" ? errorStep(error) : streamStep([], { error });

const fallsOver: [string, Error | ErrorSpec][] = [
  ["a rate limit (429)", { statusCode: 429, message: "Rate limit reached" }],
  ["a server error (500)", { statusCode: 500 }],
  ["an overloaded server (503)", { statusCode: 503 }],
  ["a network failure", new ProviderError("socket hang up", { reason: "network", providerId: "scripted" })],
  ["a provider timeout (408)", { statusCode: 408 }],
];

const staysPut: [string, Error | ErrorSpec, string][] = [
  ["an invalid request (400)", { statusCode: 400, message: "Unknown parameter" }, "invalid-request"],
  ["an authentication failure (401)", { statusCode: 401, message: "Incorrect API key" }, "authentication"],
  [
    "a content-policy refusal",
    new ProviderError("The prompt was filtered", { statusCode: 400, reason: "content-policy", providerId: "scripted" }),
    "content-policy",
  ],
];

describe("withFallbacks", () => {
  describe.each(callModes)("through %s", (mode) => {
    it.each(fallsOver)("should move on to the next model after %s", async (_name, error) => {
      const primary = scripted("primary", [failing(error, mode)]);
      const backup = scripted("backup", [textStep("Hi from backup.")]);
      const model = withFallbacks([primary, backup]);
      const fallbacks: FallbackEvent[] = [];
      model.emitter.on("fallback", (event) => fallbacks.push(event));
      const { output } = await runCall(model, ask, mode);
      expect(output.text).toBe("Hi from backup.");
      expect(output.meta.model).toEqual({ providerId: "scripted", modelId: "backup" });
      expect(primary.calls).toHaveLength(1);
      expect(fallbacks).toEqual([
        expect.objectContaining({
          input: ask,
          failed: { providerId: "scripted", modelId: "primary" },
          next: { providerId: "scripted", modelId: "backup" },
          error: expect.any(ProviderError),
          reason: expect.stringContaining("scripted primary failed"),
        }),
      ]);
    });

    it.each(staysPut)(
      "should not move on after %s, which another model would refuse too",
      async (_name, error, reason) => {
        const primary = scripted("primary", [failing(error, mode)]);
        const backup = scripted("backup", [textStep("never")]);
        const { error: failure } = await settleCall(withFallbacks([primary, backup]), ask, mode);
        expect(ProviderError.isInstance(failure)).toBe(true);
        expect(failure!.reason).toBe(reason);
        expect(backup.calls).toHaveLength(0);
      },
    );

    it("should not move on after a tool-call error", async () => {
      const weather = defineTool({ name: "weather", inputSchema: z.object({ city: z.string() }) });
      const primary = scripted("primary", [toolCallStep("weather", { town: 3 })], { maxRepairAttempts: 0 });
      const backup = scripted("backup", [toolCallStep("weather", { city: "Oslo" })]);
      const input = { ...ask, tools: [weather], toolChoice: "required" as const };
      const { error } = await settleCall(withFallbacks([primary, backup]), input, mode);
      expect(ToolCallError.isInstance(error)).toBe(true);
      expect(backup.calls).toHaveLength(0);
    });

    it("should not move on when the caller aborts", async () => {
      const controller = new AbortController();
      const primary = scripted("primary", [textStep("late", { delayMs: 5_000 })]);
      const backup = scripted("backup", [textStep("never")]);
      setTimeout(() => controller.abort(), 20);
      const { error } = await settleCall(withFallbacks([primary, backup]), { ...ask, signal: controller.signal }, mode);
      expect(error?.name).toBe("AbortError");
      expect(backup.calls).toHaveLength(0);
    });

    it("should move on only after the failing model's own retries", async () => {
      const primary = scripted("primary", [failing({ statusCode: 500 }, mode), failing({ statusCode: 502 }, mode)], {
        ...quickRetry,
      });
      const backup = scripted("backup", [textStep("Backup.")]);
      const model = withFallbacks([primary, backup]);
      const retries: RetryEvent[] = [];
      model.emitter.on("retry", (event) => retries.push(event));
      const { output } = await runCall(model, ask, mode);
      expect(primary.calls).toHaveLength(2);
      expect(retries).toHaveLength(1);
      expect(retries[0]!.input).toBe(ask);
      expect(output.meta.model.modelId).toBe("backup");
    });

    it("should skip a model that failed for cooldownMs, and try it again after", async () => {
      const primary = scripted("primary", [failing({ statusCode: 503 }, mode), textStep("Primary again.")]);
      const backup = scripted("backup", [textStep("Backup 1."), textStep("Backup 2.")]);
      const model = withFallbacks([primary, backup], { cooldownMs: 80 });
      expect((await runCall(model, ask, mode)).output.text).toBe("Backup 1.");
      expect((await runCall(model, ask, mode)).output.text).toBe("Backup 2.");
      expect(primary.calls).toHaveLength(1);
      await new Promise((resolve) => setTimeout(resolve, 100));
      const { output } = await runCall(model, ask, mode);
      expect(output.text).toBe("Primary again.");
      expect(output.meta.model.modelId).toBe("primary");
    });

    it("should try a model still cooling down when every other one fails", async () => {
      const primary = scripted("primary", [failing({ statusCode: 503 }, mode), textStep("Primary answers.")]);
      const backup = scripted("backup", [textStep("Backup."), failing({ statusCode: 500 }, mode)]);
      const model = withFallbacks([primary, backup], { cooldownMs: 60_000 });
      expect((await runCall(model, ask, mode)).output.meta.model.modelId).toBe("backup");
      const { output } = await runCall(model, ask, mode);
      expect(output.text).toBe("Primary answers.");
    });

    it("should reject with a FallbackError listing every model's error when every model fails", async () => {
      const primary = scripted("primary", [failing({ statusCode: 503, message: "primary is down" }, mode)]);
      const backup = scripted("backup", [failing({ statusCode: 429, message: "backup is full" }, mode)]);
      const { error } = await settleCall(withFallbacks([primary, backup]), ask, mode);
      expect(FallbackError.isInstance(error)).toBe(true);
      expect(ChatModelError.isInstance(error)).toBe(true);
      const fallback = error as FallbackError;
      expect(fallback.errors.map((each) => (each as ProviderError).statusCode)).toEqual([503, 429]);
      expect(fallback.failures.map(({ model }) => model.modelId)).toEqual(["primary", "backup"]);
      expect(fallback.cause).toBe(fallback.errors[1]);
      expect(fallback.message).toMatch(/scripted primary: .*primary is down/);
      expect(fallback.message).toMatch(/scripted backup: .*backup is full/);
    });

    it("should let each model take its own tool_choice rung", async () => {
      const weather = defineTool({ name: "weather", inputSchema: z.object({ city: z.string() }) });
      const primary = scripted("primary", [
        failing({ statusCode: 500 }, mode),
        toolCallStep("weather", { city: "Rome" }),
      ]);
      // Like Ollama: no forced tool calls, but a JSON-schema response format.
      const backup = scripted("backup", [rawStep('{"name": "weather", "parameters": {"city": "Oslo"}}')], {
        toolChoiceSupport: ["auto"],
      });
      const model = withFallbacks([primary, backup], { cooldownMs: 0 });
      const input = { ...ask, tools: [weather], toolChoice: weather };
      const first = (await runCall(model, input, mode)).output;
      expect(first.meta).toMatchObject({ toolChoice: "response-format", model: { modelId: "backup" } });
      expect(first.toolCalls).toEqual([expect.objectContaining({ name: "weather", args: { city: "Oslo" } })]);
      expect(backup.calls[0]!.tools).toBeUndefined();
      const second = (await runCall(model, input, mode)).output;
      expect(second.meta).toMatchObject({ toolChoice: "native", model: { modelId: "primary" } });
      expect(primary.calls[1]!.toolChoice).toEqual({ type: "tool", name: "weather" });
    });

    it("should emit its own start, fallback, success and finish, with one callId", async () => {
      const primary = scripted("primary", [failing({ statusCode: 500 }, mode)]);
      const backup = scripted("backup", [textStep("Backup.")]);
      const model = withFallbacks([primary, backup]);
      const seen: [string, number][] = [];
      for (const name of ["start", "fallback", "success", "error", "finish"] as (keyof ChatModelEvents)[]) {
        model.emitter.on(name, (event: { callId: number }) => seen.push([name, event.callId]));
      }
      await runCall(model, ask, mode);
      expect(seen.map(([name]) => name)).toEqual(["start", "fallback", "success", "finish"]);
      expect(new Set(seen.map(([, callId]) => callId)).size).toBe(1);
    });
  });

  it("should stream the backup's tokens when the primary fails before its first token", async () => {
    const primary = scripted("primary", [streamStep([], { error: { statusCode: 503 } })]);
    const backup = scripted("backup", [streamStep(["Hel", "lo"])]);
    const model = withFallbacks([primary, backup]);
    const tokens: string[] = [];
    model.emitter.on("newToken", ({ chunk }) => tokens.push(chunk.type === "text-delta" ? chunk.text : chunk.type));
    const { output, chunks } = await runCall(model, ask, "createStream");
    expect(chunks.filter((chunk) => chunk.type === "text-delta")).toEqual([
      { type: "text-delta", text: "Hel" },
      { type: "text-delta", text: "lo" },
    ]);
    expect(tokens).toEqual(["Hel", "lo"]);
    expect(output.meta.model.modelId).toBe("backup");
  });

  it("should not move on once a stream has delivered a token: the error carries the partial output", async () => {
    const primary = scripted("primary", [streamStep(["Hel"], { error: { statusCode: 503 } })]);
    const backup = scripted("backup", [textStep("never")]);
    const { error, chunks } = await settleCall(withFallbacks([primary, backup]), ask, "createStream");
    expect(chunks).toEqual([{ type: "text-delta", text: "Hel" }]);
    expect(error?.statusCode).toBe(503);
    expect(error?.partialOutput).toMatchObject({ text: "Hel", finishReason: "error" });
    expect(backup.calls).toHaveLength(0);
  });

  it("should answer createStructure through the model that answers", async () => {
    const primary = scripted("primary", [errorStep({ statusCode: 429 })]);
    const backup = scripted("backup", [rawStep('{"city": "Oslo"}')]);
    const { object, output } = await withFallbacks([primary, backup]).createStructure({
      ...ask,
      schema: z.object({ city: z.string() }),
    });
    expect(object).toEqual({ city: "Oslo" });
    expect(output.meta.model.modelId).toBe("backup");
  });

  it("should bound the whole call by its timeout, not each model's", async () => {
    const primary = scripted("primary", [errorStep({ statusCode: 500 }, { delayMs: 60 })]);
    const backup = scripted("backup", [textStep("late", { delayMs: 5_000 })]);
    const started = performance.now();
    const { error } = await settleCall(withFallbacks([primary, backup]), { ...ask, timeout: 150 }, "create");
    expect(error?.name).toBe("TimeoutError");
    expect(performance.now() - started).toBeLessThan(1_000);
  });

  it("should refuse an empty list and a bad cooldown with a TypeError", () => {
    expect(() => withFallbacks([])).toThrow(/non-empty array of models/);
    expect(() => withFallbacks([scripted("a", [])], { cooldownMs: -1 })).toThrow(/cooldownMs/);
  });
});

describe("output.meta.model", () => {
  it.each(callModes)("should name the model that answered a plain %s call", async (mode) => {
    const model = new ScriptedChatModel([textStep("Hi.")], { modelId: "tiny" });
    const { output } = await runCall(model, ask, mode);
    expect(output.meta.model).toEqual({ providerId: "scripted", modelId: "tiny" });
  });
});
