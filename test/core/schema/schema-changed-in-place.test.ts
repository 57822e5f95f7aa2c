import { describe, expect, it } from "vitest";
import { ToolCallError, StructuredOutputError, type ChatModelInput } from "../../../src/index.js";
import { ScriptedChatModel, textStep, toolCallStep } from "../../../src/testing/index.js";
import { callModes, settleCall, user } from "../../support/run-modes.js";

// A JSON Schema object changed in place after keelson first saw it: what goes on the wire and what
// the reply is validated against must be the same schema (keelson reads a schema object once).

const citySchema = () => ({
  type: "object",
  properties: { city: { type: "string", enum: ["Paris"] } },
  required: ["city"],
  additionalProperties: false,
});

describe.each(callModes)("a JSON Schema changed in place between calls, through %s", (mode) => {
  it("should validate a tool call against the schema the provider was sent", async () => {
    const schema = citySchema();
    const model = new ScriptedChatModel(
      [toolCallStep("weather", { city: "Paris" }), toolCallStep("weather", { city: "Rome" })],
      {
        maxRepairAttempts: 0,
      },
    );
    const input: ChatModelInput = { messages: [user("Weather?")], tools: [{ name: "weather", inputSchema: schema }] };
    expect((await settleCall(model, input, mode)).error).toBeUndefined();

    schema.properties.city.enum.push("Rome");
    const second = await settleCall(model, input, mode);
    const sentEnum = (model.calls[1]!.tools![0]!.parameters as ReturnType<typeof citySchema>).properties.city.enum;
    // The provider was told only what the call is validated against.
    expect(sentEnum).toEqual(["Paris"]);
    expect(ToolCallError.isInstance(second.error)).toBe(true);
  });

  it("should take a new schema object at once", async () => {
    const model = new ScriptedChatModel(
      [toolCallStep("weather", { city: "Paris" }), toolCallStep("weather", { city: "Rome" })],
      {
        maxRepairAttempts: 0,
      },
    );
    const first = citySchema();
    await settleCall(model, { messages: [user("Weather?")], tools: [{ name: "weather", inputSchema: first }] }, mode);
    const wider = citySchema();
    wider.properties.city.enum.push("Rome");
    const second = await settleCall(
      model,
      { messages: [user("Weather?")], tools: [{ name: "weather", inputSchema: wider }] },
      mode,
    );
    expect(second.error).toBeUndefined();
    expect(second.output!.toolCalls[0]!.args).toEqual({ city: "Rome" });
  });

  it("should validate a structured output against the schema the provider was sent", async () => {
    const schema = citySchema();
    const model = new ScriptedChatModel([textStep('{"city":"Paris"}'), textStep('{"city":"Rome"}')], {
      maxRepairAttempts: 0,
    });
    const input: ChatModelInput = { messages: [user("Where?")], responseFormat: schema };
    expect((await settleCall(model, input, mode)).error).toBeUndefined();

    schema.properties.city.enum.push("Rome");
    const second = await settleCall(model, input, mode);
    const sent = model.calls[1]!.responseFormat as unknown as { schema: ReturnType<typeof citySchema> };
    expect(sent.schema.properties.city.enum).toEqual(["Paris"]);
    expect(StructuredOutputError.isInstance(second.error)).toBe(true);
  });
});
