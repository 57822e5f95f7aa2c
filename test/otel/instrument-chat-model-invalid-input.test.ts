import { SpanStatusCode } from "@opentelemetry/api";
import { afterEach, describe, expect, it, vi } from "vitest";
import type { ChatModelInput } from "../../src/index.js";
import { instrumentChatModel } from "../../src/otel/index.js";
import { ScriptedChatModel } from "../../src/testing/index.js";
import { callModes, settleCall, user } from "../support/run-modes.js";
import { useSpanExporter } from "../support/span-exporter.js";

const { exporter, tracer } = useSpanExporter();
afterEach(() => vi.restoreAllMocks());

describe("instrumentChatModel", () => {
  describe.each(callModes)("through %s", (mode) => {
    it.each([null, undefined])("should record an ended error span for a call given %s as its input", async (input) => {
      const warnings = vi.spyOn(process, "emitWarning");
      const model = new ScriptedChatModel([]);
      instrumentChatModel(model, { tracer, recordContent: true });
      const { error } = await settleCall(model, input as unknown as ChatModelInput, mode);
      expect(error).toBeInstanceOf(TypeError);
      const spans = exporter.getFinishedSpans();
      expect(spans).toHaveLength(1);
      expect(spans[0]!.attributes).toMatchObject({
        "gen_ai.operation.name": "chat",
        "gen_ai.request.model": "scripted",
        "error.type": "TypeError",
      });
      expect(spans[0]!.status.code).toBe(SpanStatusCode.ERROR);
      expect(warnings).not.toHaveBeenCalled();
    });

    it("should end the span it started when the messages cannot be recorded as JSON", async () => {
      const model = new ScriptedChatModel([]);
      instrumentChatModel(model, { tracer, recordContent: true });
      const toolCall = { type: "tool-call", id: "call_1", name: "count", args: { n: 1n } };
      const input = { messages: [user("hi"), { role: "assistant", content: [toolCall] }] } as unknown as ChatModelInput;
      await settleCall(model, input, mode);
      const spans = exporter.getFinishedSpans();
      expect(spans).toHaveLength(1);
      expect(spans[0]!.status.code).toBe(SpanStatusCode.ERROR);
    });
  });
});
