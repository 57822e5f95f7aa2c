import { describe, expect, it } from "vitest";
import { toolUnionSchema, type UnionTool } from "../../../src/index.js";

const weather: UnionTool = {
  name: "weather",
  parameters: {
    type: "object",
    properties: { city: { type: "string" }, unit: { type: "string" } },
    required: ["city"],
  },
};
const time: UnionTool = {
  name: "time",
  parameters: { type: "object", properties: { zone: { type: "string" } }, required: ["zone"] },
};

describe("toolUnionSchema", () => {
  it("should compile one tool to an object with its name as a constant and its parameters", () => {
    expect(toolUnionSchema([weather])).toEqual({
      type: "object",
      properties: { name: { type: "string", enum: ["weather"] }, parameters: weather.parameters },
      required: ["name", "parameters"],
      additionalProperties: false,
    });
  });

  it("should compile several tools to an anyOf, and parallel calls to an array of it", () => {
    const union = toolUnionSchema([weather, time]);
    expect(union.anyOf).toHaveLength(2);
    expect((union.anyOf as { properties: { name: unknown } }[]).map((variant) => variant.properties.name)).toEqual([
      { type: "string", enum: ["weather"] },
      { type: "string", enum: ["time"] },
    ]);
    expect(toolUnionSchema([weather, time], { parallel: true })).toEqual({ type: "array", items: union, minItems: 1 });
  });

  it("should wrap the union as { item } for providers that want an object root", () => {
    const wrapped = toolUnionSchema([weather, time], { wrap: true, parallel: true });
    expect(wrapped).toMatchObject({
      type: "object",
      required: ["item"],
      additionalProperties: false,
      properties: { item: { type: "array" } },
    });
  });

  it("should inline $ref and $defs, and cut a recursive reference", () => {
    const tool: UnionTool = {
      name: "tree",
      parameters: {
        type: "object",
        properties: { root: { $ref: "#/$defs/Node" }, owner: { $ref: "#/definitions/Person" } },
        $defs: { Node: { type: "object", properties: { label: { type: "string" }, child: { $ref: "#/$defs/Node" } } } },
        definitions: { Person: { type: "object", properties: { name: { type: "string" } } } },
      },
    };
    const parameters = (toolUnionSchema([tool]).properties as { parameters: Record<string, unknown> }).parameters;
    expect(JSON.stringify(parameters)).not.toContain("$ref");
    expect(parameters).not.toHaveProperty("$defs");
    expect(parameters).toMatchObject({
      properties: {
        root: { type: "object", properties: { label: { type: "string" }, child: {} } },
        owner: { type: "object", properties: { name: { type: "string" } } },
      },
    });
  });

  it("should make a strict variant: every property required, optional ones nullable, no extra keys", () => {
    const parameters = (
      toolUnionSchema([weather], { strict: true }).properties as { parameters: Record<string, unknown> }
    ).parameters;
    expect(parameters).toEqual({
      type: "object",
      properties: { city: { type: "string" }, unit: { anyOf: [{ type: "string" }, { type: "null" }] } },
      required: ["city", "unit"],
      additionalProperties: false,
    });
  });

  it("should compute the schema once per tool set and reuse it", () => {
    expect(toolUnionSchema([weather, time])).toBe(toolUnionSchema([weather, time]));
    expect(toolUnionSchema([weather, time])).not.toBe(toolUnionSchema([time, weather]));
    expect(toolUnionSchema([weather], { wrap: true })).not.toBe(toolUnionSchema([weather]));
  });

  it("should refuse an empty tool list", () => {
    expect(() => toolUnionSchema([])).toThrow(TypeError);
  });
});
