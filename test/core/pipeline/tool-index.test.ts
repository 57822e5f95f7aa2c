import { describe, expect, it } from "vitest";
import { z } from "zod";
import { ToolCallError, defineTool, type ToolDefinition } from "../../../src/index.js";
import { ScriptedChatModel, textStep, toolCallStep } from "../../../src/testing/index.js";
import { indexTools } from "../../../src/core/pipeline/tool-index.js";

const user = (content: string) => ({ role: "user" as const, content });
const weather = defineTool({
  name: "weather",
  description: "Weather of a city",
  inputSchema: z.object({ city: z.string() }),
});
const time = defineTool({ name: "time", inputSchema: z.object({ zone: z.string() }) });

describe("indexTools", () => {
  it("should index the same unchanged array once and hand out that index again", () => {
    const tools = [weather, time];
    const first = indexTools(tools);
    expect(indexTools(tools)).toBe(first);
    expect(first.providerTools.map((tool) => tool.name)).toEqual(["weather", "time"]);
    // Another array with the same tools is indexed on its own.
    expect(indexTools([weather, time])).not.toBe(first);
  });

  it("should index an array again once a tool is added, removed or replaced in place", () => {
    const tools: ToolDefinition[] = [weather];
    const first = indexTools(tools);
    tools.push(time);
    const grown = indexTools(tools);
    expect(grown.providerTools.map((tool) => tool.name)).toEqual(["weather", "time"]);
    tools.pop();
    expect(indexTools(tools).providerTools.map((tool) => tool.name)).toEqual(["weather"]);
    tools[0] = time;
    expect(indexTools(tools).providerTools.map((tool) => tool.name)).toEqual(["time"]);
    expect(indexTools(tools)).not.toBe(first);
  });

  it("should read a tool definition's fields afresh when they change", () => {
    const definition: ToolDefinition = {
      name: "lookup",
      description: "first",
      inputSchema: { type: "object", properties: { id: { type: "string" } } },
    };
    const tools = [definition];
    expect(indexTools(tools).providerTools[0]).toMatchObject({ name: "lookup", description: "first" });
    definition.description = "second";
    expect(indexTools(tools).providerTools[0]).toMatchObject({ description: "second" });
    definition.name = "find";
    expect([...indexTools(tools).toolsByName.keys()]).toEqual(["find"]);
    const schema = { type: "object", properties: { q: { type: "number" } }, required: ["q"] };
    definition.inputSchema = schema;
    const entry = indexTools(tools).toolsByName.get("find")!;
    expect(entry.tool.parameters).toEqual(schema);
    expect(entry.validate({ q: "not a number" }).success).toBe(false);
  });

  it("should still refuse two tools of one name when the array changes into that", () => {
    const tools: ToolDefinition[] = [weather];
    indexTools(tools);
    tools.push(defineTool({ name: "weather", inputSchema: z.object({}) }));
    expect(() => indexTools(tools)).toThrow(/Two tools are named 'weather'/);
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
