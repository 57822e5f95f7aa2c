// Core learns every refusal an adapter names on its ProviderError, whatever the adapter: shown
// through ScriptedChatModel (each instance its own endpoint), create and createStream alike.
import { describe, expect, it } from "vitest";
import { z } from "zod";
import type { Message, WarningEvent } from "../../../src/index.js";
import { ProviderError, defineTool } from "../../../src/index.js";
import { ScriptedChatModel, errorStep, textStep, toolCallStep } from "../../../src/testing/index.js";
import { callModes, runCall, settleCall, user } from "../../support/run-modes.js";

const schema = z.object({ city: z.string() });
const weather = defineTool({ name: "weather", inputSchema: schema });
const refusesFormat = () =>
  errorStep({
    statusCode: 400,
    message: "response_format json_schema is not supported",
    rejectedParameter: { name: "response_format", value: "json-schema" },
  });

function listen(model: ScriptedChatModel): WarningEvent[] {
  const warnings: WarningEvent[] = [];
  model.emitter.on("warning", (event) => void warnings.push(event));
  return warnings;
}

describe.each(callModes)("learning from a refusal, through core (%s)", (mode) => {
  it("should move a structured call whose JSON-schema format was refused to a forced tool, in the same call", async () => {
    const scripted = new ScriptedChatModel([refusesFormat(), toolCallStep("response", { city: "Oslo" })], {
      retry: { maxRetries: 0 },
    });
    const warnings = listen(scripted);
    const { output } = await runCall(scripted, { messages: [user("Where?")], responseFormat: schema }, mode);
    expect(output.object).toEqual({ city: "Oslo" });
    expect(scripted.calls[0]!.responseFormat).toMatchObject({ type: "json-schema" });
    expect(scripted.calls[1]!.responseFormat).toBeUndefined();
    expect(scripted.calls[1]!.toolChoice).toEqual({ type: "tool", name: "response" });
    expect(scripted.supportsStructuredOutput).toBe(false);
    expect(warnings).toEqual([expect.objectContaining({ code: "learned-capability" })]);
    expect(warnings[0]!.message).toContain("supportsStructuredOutput: false");
  });

  it("should move it to the prompt where no tool can be forced", async () => {
    const scripted = new ScriptedChatModel([refusesFormat(), textStep('{"city": "Oslo"}')], {
      toolChoiceSupport: [],
      retry: { maxRetries: 0 },
    });
    const { output } = await runCall(scripted, { messages: [user("Where?")], responseFormat: schema }, mode);
    expect(output.object).toEqual({ city: "Oslo" });
    expect(output.meta.toolChoice).toBe("prompt");
    expect(scripted.calls[1]!.messages[0]).toMatchObject({ role: "system", content: expect.stringContaining("city") });
  });

  it("should leave out a refused parallel_tool_calls from then on", async () => {
    const scripted = new ScriptedChatModel(
      [
        errorStep({ statusCode: 400, rejectedParameter: { name: "parallel_tool_calls" } }),
        textStep("Sunny."),
        textStep("Still sunny."),
      ],
      { retry: { maxRetries: 0 } },
    );
    await runCall(scripted, { messages: [user("Weather?")], tools: [weather] }, mode);
    await runCall(scripted, { messages: [user("Weather?")], tools: [weather] }, mode);
    expect(scripted.calls.map((call) => call.parallelToolCalls)).toEqual([false, undefined, undefined]);
  });

  it("should send a refused reasoning back no more, the caller's messages untouched", async () => {
    const history: Message[] = [
      user("Weather in Oslo?"),
      {
        role: "assistant",
        content: [
          { type: "reasoning", text: "Look it up." },
          { type: "tool-call", id: "call_1", name: "weather", args: { city: "Oslo" } },
        ],
      },
      { role: "tool", toolCallId: "call_1", toolName: "weather", content: "Sunny" },
    ];
    const before = structuredClone(history);
    const scripted = new ScriptedChatModel(
      [errorStep({ statusCode: 400, rejectedParameter: { name: "reasoning" } }), textStep("Sunny.")],
      { retry: { maxRetries: 0 } },
    );
    await runCall(scripted, { messages: history, tools: [weather] }, mode);
    const parts = (index: number) =>
      (scripted.calls[index]!.messages[1]!.content as { type: string }[]).map((part) => part.type);
    expect(parts(0)).toEqual(["reasoning", "tool-call"]);
    expect(parts(1)).toEqual(["tool-call"]);
    expect(history).toEqual(before);
  });

  it("should throw a refusal of what the request did not carry, learning nothing", async () => {
    const scripted = new ScriptedChatModel([refusesFormat(), textStep("never")], { retry: { maxRetries: 0 } });
    const warnings = listen(scripted);
    const { error } = await settleCall(scripted, { messages: [user("Hi")] }, mode);
    expect(ProviderError.isInstance(error)).toBe(true);
    expect(scripted.calls).toHaveLength(1);
    expect(scripted.supportsStructuredOutput).toBe(true);
    expect(warnings).toEqual([]);
  });

  it("should keep each scripted model's lessons its own, and share them with its clones", async () => {
    const scripted = new ScriptedChatModel([refusesFormat(), toolCallStep("response", { city: "Oslo" })], {
      retry: { maxRetries: 0 },
    });
    const copy = scripted.clone();
    const other = new ScriptedChatModel([]);
    await runCall(scripted, { messages: [user("Where?")], responseFormat: schema }, mode);
    expect(copy.supportsStructuredOutput).toBe(false);
    expect(other.supportsStructuredOutput).toBe(true);
  });
});
