import { describe, expect, it } from "vitest";
import { z } from "zod";
import { defineTool, type Message } from "../../src/index.js";
import { instrumentChatModel } from "../../src/otel/index.js";
import { ScriptedChatModel, toolCallStep } from "../../src/testing/index.js";
import { callModes, runCall } from "../support/run-modes.js";
import { useSpanExporter } from "../support/span-exporter.js";

const { exporter, tracer } = useSpanExporter();
const weather = defineTool({ name: "weather", inputSchema: z.object({ city: z.string() }) });

describe("instrumentChatModel", () => {
  describe.each(callModes)("through %s", (mode) => {
    it("should record content as the GenAI conventions' messages: role, parts and the reply's finish reason", async () => {
      const model = new ScriptedChatModel([toolCallStep("weather", { city: "Oslo" }, { id: "call_2" })]);
      instrumentChatModel(model, { tracer, recordContent: true });
      const messages: Message[] = [
        { role: "system", content: "Be brief." },
        {
          role: "user",
          content: [
            { type: "text", text: "Weather here?" },
            { type: "image", image: "https://example.com/a.png" },
          ],
        },
        {
          role: "assistant",
          content: [{ type: "tool-call", id: "call_1", name: "weather", args: { city: "Bergen" } }],
        },
        { role: "tool", toolCallId: "call_1", toolName: "weather", content: "Rain." },
        { role: "user", content: "And Oslo?" },
      ];
      await runCall(model, { messages, tools: [weather] }, mode);
      const [span] = exporter.getFinishedSpans();
      expect(JSON.parse(span!.attributes["gen_ai.input.messages"] as string)).toEqual([
        { role: "system", parts: [{ type: "text", content: "Be brief." }] },
        {
          role: "user",
          parts: [
            { type: "text", content: "Weather here?" },
            { type: "uri", modality: "image", uri: "https://example.com/a.png" },
          ],
        },
        {
          role: "assistant",
          parts: [{ type: "tool_call", id: "call_1", name: "weather", arguments: { city: "Bergen" } }],
        },
        { role: "tool", parts: [{ type: "tool_call_response", id: "call_1", response: "Rain." }] },
        { role: "user", parts: [{ type: "text", content: "And Oslo?" }] },
      ]);
      expect(JSON.parse(span!.attributes["gen_ai.output.messages"] as string)).toEqual([
        {
          role: "assistant",
          parts: [{ type: "tool_call", id: "call_2", name: "weather", arguments: { city: "Oslo" } }],
          finish_reason: "tool_call",
        },
      ]);
    });
  });
});
