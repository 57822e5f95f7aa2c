import { describe, expect, it } from "vitest";
import { z } from "zod";
import { ToolCallError, defineTool, type ToolDefinition } from "../../../src/index.js";
import { ScriptedChatModel, textStep, toolCallStep } from "../../../src/testing/index.js";

const user = (content: string) => ({ role: "user" as const, content });
const weather = defineTool({
  name: "weather",
  description: "Weather of a city",
  inputSchema: z.object({ city: z.string() }),
});
const time = defineTool({ name: "time", inputSchema: z.object({ zone: z.string() }) });

describe("a call's tools, read at each call", () => {
  it("should send a tool definition's fields as they are when the call is made, changed in place or not", async () => {
    const model = new ScriptedChatModel([textStep("one"), textStep("two"), toolCallStep("find", { q: "x" })], {
      maxRepairAttempts: 0,
    });
    const definition: ToolDefinition = {
      name: "lookup",
      description: "first",
      inputSchema: { type: "object", properties: { id: { type: "string" } } },
    };
    const tools = [definition];
    await model.create({ messages: [user("Hi")], tools });
    definition.description = "second";
    await model.create({ messages: [user("Hi")], tools });
    expect(model.calls.map((call) => call.tools![0]!.description)).toEqual(["first", "second"]);
    // Renamed and given another schema: a call to it is validated against the new one.
    definition.name = "find";
    definition.inputSchema = { type: "object", properties: { q: { type: "number" } }, required: ["q"] };
    const error = await model.create({ messages: [user("Hi")], tools }).catch((caught: unknown) => caught);
    expect(error).toMatchObject({ kind: "invalid-args" });
    expect(model.calls[2]!.tools![0]).toMatchObject({ name: "find", parameters: definition.inputSchema });
  });

  it("should send a defined tool's description changed in place, the tools array reused", async () => {
    const model = new ScriptedChatModel([textStep("one"), textStep("two"), textStep("three")]);
    const lookup = defineTool({ name: "lookup", description: "first", inputSchema: z.object({ id: z.string() }) });
    const tools = [lookup, time];
    await model.create({ messages: [user("Hi")], tools });
    await model.create({ messages: [user("Hi")], tools });
    lookup.description = "second";
    await model.create({ messages: [user("Hi")], tools });
    expect(model.calls.map((call) => call.tools![0]!.description)).toEqual(["first", "first", "second"]);
  });

  it("should refuse two tools of one name, also once an array reused between calls grows into that", async () => {
    const model = new ScriptedChatModel([textStep("one"), textStep("two")]);
    const tools: ToolDefinition[] = [weather];
    await model.create({ messages: [user("Hi")], tools });
    tools.push(defineTool({ name: "weather", inputSchema: z.object({}) }));
    await expect(model.create({ messages: [user("Hi")], tools })).rejects.toThrow(/Two tools are named 'weather'/);
  });
});

describe("a model's calls with one tools array reused", () => {
  it("should send and validate against what the array holds at each call", async () => {
    const model = new ScriptedChatModel(
      [textStep("first"), toolCallStep("time", { zone: "UTC" }), toolCallStep("weather", { city: "Paris" })],
      { maxRepairAttempts: 0 },
    );
    const tools: ToolDefinition[] = [weather];
    const input = { messages: [user("Hi")], tools };

    await model.create(input);
    expect(model.calls[0]!.tools!.map((tool) => tool.name)).toEqual(["weather"]);

    // The agent adds a tool to the same array: the next call sends it and accepts a call to it.
    tools.push(time);
    const second = await model.create(input);
    expect(model.calls[1]!.tools!.map((tool) => tool.name)).toEqual(["weather", "time"]);
    expect(second.toolCalls[0]).toMatchObject({ name: "time", args: { zone: "UTC" } });

    // And removes one: a call to it is now an unknown tool.
    tools.splice(0, 1);
    const error = await model.create(input).catch((caught: unknown) => caught);
    expect(ToolCallError.isInstance(error)).toBe(true);
    expect(error).toMatchObject({ kind: "unknown-tool" });
    expect(model.calls[2]!.tools!.map((tool) => tool.name)).toEqual(["time"]);
  });
});
