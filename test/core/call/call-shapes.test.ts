import { describe, expect, it } from "vitest";
import { z } from "zod";
import { ToolCallError, defineTool, type ChatModelInput, type ToolChoice } from "../../../src/index.js";
import { ScriptedChatModel, textStep, toolCallStep } from "../../../src/testing/index.js";

// A model's calls keep the last call shape (ladder plan, rules) while a call repeats what it was
// made from. These are the changes between two calls with the same input object that must still
// reach the wire and the reply's checks.

const user = (content: string) => ({ role: "user" as const, content });
const weather = defineTool({ name: "weather", inputSchema: z.object({ city: z.string() }) });
const time = defineTool({ name: "time", inputSchema: z.object({ zone: z.string() }) });
const unionReply = (name: string, parameters: Record<string, unknown>) =>
  textStep(JSON.stringify({ name, parameters }));

describe("a model's calls with the same input, the model's settings changed between them", () => {
  it("should climb down the ladder once toolChoiceSupport is replaced", async () => {
    const model = new ScriptedChatModel([
      toolCallStep("weather", { city: "Paris" }),
      unionReply("weather", { city: "Oslo" }),
    ]);
    const input: ChatModelInput = {
      messages: [user("Weather?")],
      tools: [weather, time],
      toolChoice: { type: "tool", name: "weather" },
    };

    const native = await model.create(input);
    expect(native.meta.toolChoice).toBe("native");
    expect(model.calls[0]!.toolChoice).toEqual({ type: "tool", name: "weather" });

    model.toolChoiceSupport = new Set(["auto", "none"]);
    const forced = await model.create(input);
    expect(forced.meta.toolChoice).toBe("response-format");
    expect(model.calls[1]!.tools).toBeUndefined();
    expect(model.calls[1]!.responseFormat).toMatchObject({ type: "json-schema" });
    expect(forced.toolCalls[0]).toMatchObject({ name: "weather", args: { city: "Oslo" } });
  });

  it("should see toolChoiceSupport changed in place (the same Set)", async () => {
    const model = new ScriptedChatModel([
      toolCallStep("weather", { city: "Paris" }),
      toolCallStep("weather", { city: "Rome" }),
    ]);
    const input: ChatModelInput = {
      messages: [user("Weather?")],
      tools: [weather, time],
      toolChoice: { type: "tool", name: "weather" },
    };
    await model.create(input);

    model.toolChoiceSupport.delete("single");
    const second = await model.create(input);
    expect(second.meta.toolChoice).toBe("emulated");
    expect(model.calls[1]!.toolChoice).toBe("required");
    expect(model.calls[1]!.tools!.map((tool) => tool.name)).toEqual(["weather"]);
  });

  it("should send and enforce a parallel-calls setting changed on the model", async () => {
    const twoCalls = () => toolCallStep("weather", { city: "Paris" });
    const model = new ScriptedChatModel([twoCalls(), twoCalls()], { maxRepairAttempts: 0 });
    const input: ChatModelInput = { messages: [user("Weather?")], tools: [weather], toolChoice: "required" };
    await model.create(input);
    expect(model.calls[0]!.parallelToolCalls).toBe(false);

    model.allowParallelToolCalls = true;
    await model.create(input);
    expect(model.calls[1]!.parallelToolCalls).toBe(true);
  });

  it("should stop repairing broken arguments once fixInvalidToolCalls is switched off", async () => {
    const broken = () => toolCallStep("weather", '{"city": "Paris",}');
    const model = new ScriptedChatModel([broken(), broken()], { maxRepairAttempts: 0 });
    const input: ChatModelInput = { messages: [user("Weather?")], tools: [weather], toolChoice: "required" };
    const repaired = await model.create(input);
    expect(repaired.toolCalls[0]!.args).toEqual({ city: "Paris" });

    model.fixInvalidToolCalls = false;
    const error = await model.create(input).catch((caught: unknown) => caught);
    expect(ToolCallError.isInstance(error)).toBe(true);
    expect(error).toMatchObject({ kind: "invalid-args" });
  });
});

describe("a model's calls with the same input, the input's fields changed in place between them", () => {
  it("should force the tool a reused tool_choice object names now", async () => {
    const model = new ScriptedChatModel([
      toolCallStep("weather", { city: "Paris" }),
      toolCallStep("time", { zone: "UTC" }),
    ]);
    const choice = { type: "tool" as const, name: "weather" };
    const input: ChatModelInput = { messages: [user("Hi")], tools: [weather, time], toolChoice: choice };
    await model.create(input);

    choice.name = "time";
    const second = await model.create(input);
    expect(model.calls[1]!.toolChoice).toEqual({ type: "tool", name: "time" });
    expect(second.toolCalls[0]).toMatchObject({ name: "time", args: { zone: "UTC" } });
  });

  it("should follow toolChoice and fallbackTool set on the same input object", async () => {
    const model = new ScriptedChatModel([textStep("hello"), toolCallStep("time", { zone: "UTC" })]);
    const input: ChatModelInput = { messages: [user("Hi")], tools: [weather, time] };
    await model.create(input);
    expect(model.calls[0]!.toolChoice).toBe("auto");

    input.toolChoice = "required" satisfies ToolChoice;
    input.fallbackTool = "time";
    const second = await model.create(input);
    expect(model.calls[1]!.toolChoice).toBe("required");
    expect(second.toolCalls[0]).toMatchObject({ name: "time" });
  });

  it("should keep working after a call whose input was refused", async () => {
    const model = new ScriptedChatModel([
      toolCallStep("weather", { city: "Paris" }),
      toolCallStep("weather", { city: "Lima" }),
    ]);
    const good: ChatModelInput = {
      messages: [user("Hi")],
      tools: [weather],
      toolChoice: { type: "tool", name: "weather" },
    };
    await model.create(good);
    await expect(model.create({ ...good, toolChoice: { type: "tool", name: "missing" } })).rejects.toThrow(
      /not in input.tools/,
    );
    const again = await model.create(good);
    expect(again.toolCalls[0]).toMatchObject({ name: "weather", args: { city: "Lima" } });
    expect(model.calls).toHaveLength(2);
  });
});
