import { describe, expect, it } from "vitest";
import { z } from "zod";
import {
  UnsupportedFeatureError,
  defineTool,
  type FallbackEvent,
  type ToolChoiceMode,
  type WarningEvent,
} from "../../../src/index.js";
import {
  ScriptedChatModel,
  errorStep,
  rawStep,
  streamStep,
  textStep,
  toolCallStep,
} from "../../../src/testing/index.js";
import { callModes, runCall, user } from "../../support/run-modes.js";

const weather = defineTool({ name: "weather", inputSchema: z.object({ city: z.string() }) });
const time = defineTool({ name: "time", inputSchema: z.object({ zone: z.string() }) });
const tools = [weather, time];
const ask = { messages: [user("Weather in Oslo?")], tools };

/** A provider's 400 refusing tool_choice "required", and a reply on the response-format rung. */
const refusesRequired = () =>
  errorStep({ statusCode: 400, message: "tool_choice 'required' is not supported", rejectedToolChoice: "required" });
const unionReply = (city: string) => rawStep(`{"name": "weather", "parameters": {"city": "${city}"}}`);
/** One quick retry. */
const oneRetry = { retry: { maxRetries: 1, initialDelayMs: 1, maxDelayMs: 2 } };

function model(steps: ConstructorParameters<typeof ScriptedChatModel>[0], support: ToolChoiceMode[], options = {}) {
  return new ScriptedChatModel(steps, { toolChoiceSupport: support, ...options });
}

describe("the tool_choice ladder", () => {
  describe.each(callModes)("through %s", (mode) => {
    it("should send a supported value as it is (native)", async () => {
      const scripted = model([toolCallStep("weather", { city: "Oslo" })], ["auto", "none", "required", "single"]);
      const { output } = await runCall(scripted, { ...ask, toolChoice: weather }, mode);
      expect(output.meta.toolChoice).toBe("native");
      expect(scripted.calls[0]).toMatchObject({ toolChoice: { type: "tool", name: "weather" } });
      expect(scripted.calls[0]!.tools).toHaveLength(2);
    });

    it("should report auto without 'auto' in the support set as native: the tools without a tool_choice, and no fallback", async () => {
      // An empty support set (Ollama's profile): tools with no tool_choice is what auto means there.
      const scripted = model([toolCallStep("weather", { city: "Oslo" })], []);
      const fallbacks: FallbackEvent[] = [];
      scripted.emitter.on("fallback", (event) => fallbacks.push(event));
      const { output } = await runCall(scripted, ask, mode);
      expect(output.meta.toolChoice).toBe("native");
      expect(scripted.calls[0]!.tools!.map((tool) => tool.name)).toEqual(["weather", "time"]);
      expect(scripted.calls[0]!).not.toHaveProperty("toolChoice");
      expect(fallbacks).toEqual([]);
    });

    it("should emulate none by sending no tools", async () => {
      const scripted = model([textStep("Sunny.")], ["auto", "required"]);
      const fallbacks: FallbackEvent[] = [];
      scripted.emitter.on("fallback", (event) => fallbacks.push(event));
      const { output } = await runCall(scripted, { ...ask, toolChoice: "none" }, mode);
      expect(output.meta.toolChoice).toBe("emulated");
      expect(scripted.calls[0]!.tools).toBeUndefined();
      expect(scripted.calls[0]!.toolChoice).toBeUndefined();
      expect(fallbacks).toEqual([
        expect.objectContaining({ rung: "emulated", reason: expect.stringContaining("none") }),
      ]);
    });

    it("should emulate a single tool with required when only required is supported", async () => {
      const scripted = model([toolCallStep("weather", { city: "Oslo" })], ["auto", "required"]);
      const { output } = await runCall(scripted, { ...ask, toolChoice: weather }, mode);
      expect(output.meta.toolChoice).toBe("emulated");
      expect(scripted.calls[0]!.tools!.map((tool) => tool.name)).toEqual(["weather"]);
      expect(scripted.calls[0]!.toolChoice).toBe("required");
    });

    it("should force required through the response format with no tools and no tool_choice on the wire", async () => {
      const scripted = model([rawStep('{"name": "time", "parameters": {"zone": "CET"}}')], ["auto"]);
      const { output, chunks } = await runCall(scripted, { ...ask, toolChoice: "required" }, mode);
      const sent = scripted.calls[0]!;
      expect(sent.tools).toBeUndefined();
      expect(sent.toolChoice).toBeUndefined();
      expect(sent.responseFormat).toMatchObject({
        type: "json-schema",
        name: "tool_call",
        schema: { anyOf: expect.any(Array) },
      });
      expect(output.meta.toolChoice).toBe("response-format");
      expect(output.toolCalls).toEqual([
        { type: "tool-call", id: expect.stringMatching(/^call_[a-z0-9]{8}$/), name: "time", args: { zone: "CET" } },
      ]);
      expect(output.text).toBe("");
      expect(output.finishReason).toBe("tool-calls");
      if (mode === "createStream") {
        expect(chunks.some((chunk) => chunk.type === "text-delta")).toBe(false);
        expect(chunks.filter((chunk) => chunk.type === "tool-call")).toHaveLength(1);
      }
    });

    it("should force a single tool through the response format, reading bare parameters as that tool", async () => {
      const scripted = model([rawStep('{"city": "Oslo"}')], []);
      const { output } = await runCall(scripted, { ...ask, toolChoice: weather }, mode);
      expect(scripted.calls[0]!.responseFormat).toMatchObject({
        schema: { properties: { name: { enum: ["weather"] } } },
      });
      expect(output.toolCalls[0]).toMatchObject({ name: "weather", args: { city: "Oslo" } });
    });

    it("should wrap the union as { item } when the provider wants an object root, and read it back", async () => {
      const scripted = model([rawStep('{"item": {"name": "weather", "parameters": {"city": "Oslo"}}}')], [], {
        supportsTopLevelUnion: false,
      });
      const { output } = await runCall(scripted, { ...ask, toolChoice: "required" }, mode);
      expect(scripted.calls[0]!.responseFormat).toMatchObject({ schema: { type: "object", required: ["item"] } });
      expect(output.toolCalls[0]).toMatchObject({ name: "weather", args: { city: "Oslo" } });
    });

    it("should ask for an array when parallel calls are allowed and return every call", async () => {
      const scripted = model(
        [
          rawStep(
            '[{"name": "weather", "parameters": {"city": "Oslo"}}, {"name": "time", "parameters": {"zone": "CET"}}]',
          ),
        ],
        [],
      );
      const { output } = await runCall(scripted, { ...ask, toolChoice: "required", parallelToolCalls: true }, mode);
      expect(scripted.calls[0]!.responseFormat).toMatchObject({ schema: { type: "array" } });
      expect(output.toolCalls.map((call) => call.name)).toEqual(["weather", "time"]);
    });

    it("should use the prompt rung when the provider has no structured output either", async () => {
      const scripted = model([rawStep('Here you go: {"name": "weather", "parameters": {"city": "Oslo"}}')], [], {
        supportsStructuredOutput: false,
      });
      const { output } = await runCall(scripted, { ...ask, toolChoice: "required" }, mode);
      const sent = scripted.calls[0]!;
      expect(sent.responseFormat).toBeUndefined();
      expect(sent.tools).toBeUndefined();
      expect(sent.messages[0]).toMatchObject({
        role: "system",
        content: expect.stringMatching(/You must call a tool.*weather.*"anyOf"/s),
      });
      expect(output.meta.toolChoice).toBe("prompt");
      expect(output.toolCalls[0]).toMatchObject({ name: "weather", args: { city: "Oslo" } });
    });

    it("should reject before any request when the fallback is switched off", async () => {
      const scripted = model([textStep("never")], ["auto"], { toolCallFallbackViaResponseFormat: false });
      const error = await runCall(scripted, { ...ask, toolChoice: "required" }, mode).catch(
        (caught: unknown) => caught,
      );
      expect(UnsupportedFeatureError.isInstance(error)).toBe(true);
      expect((error as UnsupportedFeatureError).feature).toBe("tool_choice:required");
      expect(scripted.calls).toHaveLength(0);
    });

    it("should re-ask on the response-format rung when the reply is not a tool call", async () => {
      const scripted = model(
        [rawStep("I think it is sunny."), rawStep('{"name": "weather", "parameters": {"city": "Oslo"}}')],
        [],
      );
      const { output } = await runCall(scripted, { ...ask, toolChoice: "required" }, mode);
      expect(output.toolCalls[0]!.name).toBe("weather");
      expect(scripted.calls[1]!.responseFormat).toEqual(scripted.calls[0]!.responseFormat);
    });

    it("should read a reply without a tool name as the fallbackTool, and never as a tool the call did not allow", async () => {
      const scripted = model([rawStep('{"zone": "UTC"}')], []);
      const { output } = await runCall(scripted, { ...ask, toolChoice: "required", fallbackTool: "time" }, mode);
      expect(output.toolCalls[0]).toMatchObject({ name: "time", args: { zone: "UTC" } });

      const outsider = defineTool({ name: "outsider", inputSchema: z.object({}) });
      await expect(runCall(scripted, { ...ask, toolChoice: "required", fallbackTool: outsider }, mode)).rejects.toThrow(
        /never falls back/,
      );
      await expect(runCall(scripted, { ...ask, toolChoice: weather, fallbackTool: "time" }, mode)).rejects.toThrow(
        /only the forced tool/,
      );
    });

    it("should learn from a 400 that refuses a tool_choice value and retry once on the next rung", async () => {
      const scripted = model(
        [refusesRequired(), unionReply("Oslo"), unionReply("Rome")],
        ["auto", "none", "required"],
        { retry: { maxRetries: 0 } },
      );
      const warnings: WarningEvent[] = [];
      scripted.emitter.on("warning", (event) => warnings.push(event));
      const { output } = await runCall(scripted, { ...ask, toolChoice: "required" }, mode);
      expect(output.meta.toolChoice).toBe("response-format");
      expect(output.toolCalls[0]!.args).toEqual({ city: "Oslo" });
      expect(scripted.calls[0]!.toolChoice).toBe("required");
      expect(scripted.calls[1]!.toolChoice).toBeUndefined();
      expect([...scripted.toolChoiceSupport]).toEqual(["auto", "none"]);
      expect(warnings).toEqual([
        expect.objectContaining({
          code: "learned-tool-choice",
          message: expect.stringContaining('new Set(["auto","none"])'),
        }),
      ]);
      // The next call starts on the right rung at once.
      const next = await runCall(scripted, { ...ask, toolChoice: "required" }, mode);
      expect(next.output.toolCalls[0]!.args).toEqual({ city: "Rome" });
      expect(scripted.calls).toHaveLength(3);
    });
  });

  it("should stream held-back union JSON once and replace it by the calls after a reset", async () => {
    const scripted = model(
      [streamStep(["not ", "json"]), streamStep(['{"name": "weather", ', '"parameters": {"city": "Oslo"}}'])],
      [],
    );
    const chunks = [];
    const stream = scripted.createStream({ ...ask, toolChoice: "required" });
    for await (const chunk of stream) chunks.push(chunk);
    expect(chunks.map((chunk) => chunk.type)).toEqual(["reset", "tool-call", "finish"]);
    expect((await stream.final()).toolCalls[0]!.args).toEqual({ city: "Oslo" });
  });
});

describe("learning from a refused tool_choice", () => {
  it("should hold back the union JSON of a stream that learned its way onto the response-format rung", async () => {
    const scripted = model([refusesRequired(), unionReply("Oslo")], ["auto", "none", "required"], {
      retry: { maxRetries: 0 },
    });
    const stream = scripted.createStream({ ...ask, toolChoice: "required" });
    const chunks = [];
    for await (const chunk of stream) chunks.push(chunk);
    expect(chunks.map((chunk) => chunk.type)).toEqual(["tool-call", "finish"]);
    expect((await stream.final()).meta.toolChoice).toBe("response-format");
  });

  it("should retry a transient failure of the request sent again after learning, on the learned rung", async () => {
    const scripted = model(
      [refusesRequired(), errorStep({ statusCode: 503 }), unionReply("Oslo")],
      ["auto", "none", "required"],
      oneRetry,
    );
    const retries: unknown[] = [];
    scripted.emitter.on("retry", (event) => retries.push(event));
    const output = await scripted.create({ ...ask, toolChoice: "required" });
    expect(output.toolCalls[0]!.args).toEqual({ city: "Oslo" });
    expect(scripted.calls.map((call) => call.toolChoice)).toEqual(["required", undefined, undefined]);
    expect(retries).toEqual([
      expect.objectContaining({ attempt: 1, error: expect.objectContaining({ statusCode: 503 }) }),
    ]);
  });

  it("should learn from a refusal that comes on a retry, once", async () => {
    const scripted = model(
      [errorStep({ statusCode: 503 }), refusesRequired(), unionReply("Oslo")],
      ["auto", "none", "required"],
      oneRetry,
    );
    const warnings: WarningEvent[] = [];
    scripted.emitter.on("warning", (event) => warnings.push(event));
    const output = await scripted.create({ ...ask, toolChoice: "required" });
    expect(output.meta.toolChoice).toBe("response-format");
    expect(scripted.calls.map((call) => call.toolChoice)).toEqual(["required", "required", undefined]);
    expect(warnings).toHaveLength(1);
  });

  it("should not unlearn a value the request never sent", async () => {
    const scripted = model(
      [errorStep({ statusCode: 400, message: "tool_choice 'required' refused", rejectedToolChoice: "required" })],
      ["auto", "none", "required", "single"],
      {
        retry: { maxRetries: 0 },
      },
    );
    await expect(scripted.create({ ...ask, toolChoice: weather })).rejects.toMatchObject({ statusCode: 400 });
    expect([...scripted.toolChoiceSupport]).toEqual(["auto", "none", "required", "single"]);
  });
});

describe("the fallback tool of a forced call", () => {
  it("should read bare parameters as the only tool in play under required", async () => {
    const scripted = model([rawStep('{"city": "Oslo"}')], []);
    const { output } = await runCall(
      scripted,
      { messages: [user("x")], tools: [weather], toolChoice: "required" },
      "create",
    );
    expect(output.toolCalls[0]).toMatchObject({ name: "weather", args: { city: "Oslo" } });
  });

  it("should not guess among several tools without a fallbackTool", async () => {
    const scripted = model([rawStep('{"city": "Oslo"}')], [], { maxRepairAttempts: 0 });
    await expect(runCall(scripted, { ...ask, toolChoice: "required" }, "create")).rejects.toMatchObject({
      kind: "tool-choice-violation",
    });
  });
});
