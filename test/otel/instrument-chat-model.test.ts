import { SpanStatusCode } from "@opentelemetry/api";
import { describe, expect, it } from "vitest";
import { z } from "zod";
import { defineTool } from "../../src/index.js";
import { instrumentChatModel } from "../../src/otel/index.js";
import { ScriptedChatModel, errorStep, rawStep, textStep } from "../../src/testing/index.js";
import { callModes, runCall, user } from "../support/run-modes.js";
import { useSpanExporter } from "../support/span-exporter.js";

const { exporter, tracer } = useSpanExporter();
const weather = defineTool({ name: "weather", inputSchema: z.object({ city: z.string() }) });

describe("instrumentChatModel", () => {
  describe.each(callModes)("through %s", (mode) => {
    it("should record one GenAI client span per call, with tokens, finish reason, retries and the ladder rung", async () => {
      const model = new ScriptedChatModel(
        [
          errorStep({ statusCode: 503 }),
          rawStep('{"name": "weather", "parameters": {"city": "Oslo"}}', {
            usage: { inputTokens: 11, outputTokens: 7 },
          }),
        ],
        {
          toolChoiceSupport: [],
          retry: { initialDelayMs: 1 },
        },
      );
      instrumentChatModel(model, { tracer });
      await runCall(
        model,
        { messages: [user("Weather?")], tools: [weather], toolChoice: "required", parameters: { temperature: 0.1 } },
        mode,
      );
      const [span] = exporter.getFinishedSpans();
      expect(exporter.getFinishedSpans()).toHaveLength(1);
      expect(span!.name).toBe("chat scripted");
      expect(span!.attributes).toMatchObject({
        "gen_ai.operation.name": "chat",
        "gen_ai.provider.name": "scripted",
        "gen_ai.request.model": "scripted",
        "gen_ai.request.temperature": 0.1,
        "gen_ai.usage.input_tokens": 11,
        "gen_ai.usage.output_tokens": 7,
        "gen_ai.response.finish_reasons": ["tool-calls"],
        "keelson.tool_choice.rung": "response-format",
      });
      expect(span!.events.map((event) => event.name)).toEqual(["keelson.fallback", "keelson.retry"]);
      expect(span!.attributes).not.toHaveProperty("gen_ai.input.messages");
    });

    it("should mark a failed call as an error span", async () => {
      const model = new ScriptedChatModel([errorStep({ statusCode: 401, message: "bad key" })]);
      instrumentChatModel(model, { tracer });
      await expect(runCall(model, { messages: [user("x")] }, mode)).rejects.toThrow();
      const [span] = exporter.getFinishedSpans();
      expect(span!.status).toEqual({ code: SpanStatusCode.ERROR, message: "bad key" });
      expect(span!.attributes["error.type"]).toBe("ProviderError");
    });
  });

  it("should record message content only when asked, and stop when detached", async () => {
    const model = new ScriptedChatModel([textStep("Sunny."), textStep("again")]);
    const detach = instrumentChatModel(model, { tracer, recordContent: true });
    await model.create({ messages: [user("Weather?")] });
    const [span] = exporter.getFinishedSpans();
    expect(JSON.parse(span!.attributes["gen_ai.input.messages"] as string)).toEqual([
      { role: "user", parts: [{ type: "text", content: "Weather?" }] },
    ]);
    expect(JSON.parse(span!.attributes["gen_ai.output.messages"] as string)).toEqual([
      { role: "assistant", parts: [{ type: "text", content: "Sunny." }], finish_reason: "stop" },
    ]);
    detach();
    await model.create({ messages: [user("Again?")] });
    expect(exporter.getFinishedSpans()).toHaveLength(1);
    expect(model.emitter.listenerCount("start")).toBe(0);
  });
});
