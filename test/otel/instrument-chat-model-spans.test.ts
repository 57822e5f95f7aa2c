import { describe, expect, it } from "vitest";
import { instrumentChatModel } from "../../src/otel/index.js";
import { ScriptedChatModel, textStep } from "../../src/testing/index.js";
import { callModes, runCall, user } from "../support/run-modes.js";
import { useSpanExporter } from "../support/span-exporter.js";

const { exporter, tracer } = useSpanExporter();
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
const answerAfter = (text: string, ms: number, inputTokens: number) => async () => {
  await sleep(ms);
  return textStep(text, { usage: { inputTokens, outputTokens: 1 } });
};

describe("instrumentChatModel", () => {
  describe.each(callModes)("through %s", (mode) => {
    it("should record the model's default request parameters, which the request was sent with", async () => {
      const model = new ScriptedChatModel([textStep("ok")], { parameters: { temperature: 0, maxTokens: 50, seed: 7 } });
      instrumentChatModel(model, { tracer });
      await runCall(model, { messages: [user("hi")], parameters: { topP: 0.5 } }, mode);
      expect(model.calls[0]!.parameters).toMatchObject({ temperature: 0, maxTokens: 50, seed: 7, topP: 0.5 });
      expect(exporter.getFinishedSpans()[0]!.attributes).toMatchObject({
        "gen_ai.request.temperature": 0,
        "gen_ai.request.max_tokens": 50,
        "gen_ai.request.seed": 7,
        "gen_ai.request.top_p": 0.5,
      });
    });

    it("should keep overlapping calls' spans apart when they share one input object", async () => {
      // The call started first is answered first: each span must hold its own call's usage and end with it.
      const model = new ScriptedChatModel([answerAfter("fast", 5, 3), answerAfter("slow", 40, 7)]);
      instrumentChatModel(model, { tracer });
      const input = { messages: [user("hi")] };
      const first = runCall(model, input, mode);
      await sleep(2);
      const second = runCall(model, input, mode);
      await first;
      expect(exporter.getFinishedSpans().map((span) => span.attributes["gen_ai.usage.input_tokens"])).toEqual([3]);
      await second;
      const spans = exporter.getFinishedSpans();
      expect(spans.map((span) => span.attributes["gen_ai.usage.input_tokens"])).toEqual([3, 7]);
      const started = (span: (typeof spans)[number]) => span.startTime[0] * 1e9 + span.startTime[1];
      expect(started(spans[0]!)).toBeLessThan(started(spans[1]!));
    });

    it("should end the span of a call in flight when the instrumentation is stopped", async () => {
      const model = new ScriptedChatModel([answerAfter("ok", 30, 3), textStep("after")]);
      const stop = instrumentChatModel(model, { tracer });
      const call = runCall(model, { messages: [user("hi")] }, mode);
      await sleep(5);
      stop();
      await call;
      const spans = exporter.getFinishedSpans();
      expect(spans).toHaveLength(1);
      expect(spans[0]!.attributes["gen_ai.usage.input_tokens"]).toBe(3);
      await runCall(model, { messages: [user("again")] }, mode);
      expect(exporter.getFinishedSpans()).toHaveLength(1);
      expect(model.emitter.eventNames()).toEqual([]);
    });
  });
});
