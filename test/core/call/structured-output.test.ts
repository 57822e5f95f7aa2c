import { describe, expect, expectTypeOf, it } from "vitest";
import { z } from "zod";
import { StructuredOutputError } from "../../../src/index.js";
import { ScriptedChatModel, rawStep, textStep, toolCallStep } from "../../../src/testing/index.js";
import { callModes, runCall, user } from "../../support/run-modes.js";

const incident = z.object({ id: z.string(), severity: z.enum(["low", "high"]), tags: z.array(z.string()).optional() });

describe("ChatModel.createStructure", () => {
  it("should send the schema as the response format and return the typed, validated object", async () => {
    const model = new ScriptedChatModel([textStep('{"id": "INC-1", "severity": "high"}')]);
    const { object, output } = await model.createStructure({ schema: incident, messages: [user("Describe INC-1")] });
    expectTypeOf(object).toEqualTypeOf<z.infer<typeof incident>>();
    expect(object).toEqual({ id: "INC-1", severity: "high" });
    expect(output.meta.toolChoice).toBe("native");
    expect(model.calls[0]!.responseFormat).toMatchObject({
      type: "json-schema",
      name: "response",
      schema: { type: "object", required: ["id", "severity"] },
    });
  });

  it("should repair fenced or chatty JSON before validating", async () => {
    const model = new ScriptedChatModel([rawStep('Sure! ```json\n{"id": "INC-1", "severity": "low",}\n```')]);
    const { object, output } = await model.createStructure({ schema: incident, messages: [user("x")] });
    expect(object).toEqual({ id: "INC-1", severity: "low" });
    expect(output.meta.repairs.map((repair) => repair.kind)).toEqual(
      expect.arrayContaining(["stripped-wrapper", "json-repaired"]),
    );
  });

  it("should re-ask with the validation errors, then throw StructuredOutputError with the text and issues", async () => {
    const model = new ScriptedChatModel([
      textStep('{"id": "INC-1", "severity": "medium"}'),
      textStep('{"id": "INC-1", "severity": "high"}'),
    ]);
    const { object } = await model.createStructure({ schema: incident, messages: [user("x")] });
    expect(object.severity).toBe("high");
    expect(model.calls[1]!.messages.at(-1)!.content).toMatch(/severity/);

    const stubborn = new ScriptedChatModel([textStep("not json at all")], { maxRepairAttempts: 0 });
    const error = await stubborn
      .createStructure({ schema: incident, messages: [user("x")] })
      .catch((caught: unknown) => caught);
    expect(StructuredOutputError.isInstance(error)).toBe(true);
    expect(error).toMatchObject({ text: "not json at all", issues: [expect.stringContaining("not JSON")] });
  });

  it("should validate against a plain JSON Schema too", async () => {
    const schema = { type: "object", properties: { n: { type: "integer", minimum: 1 } }, required: ["n"] };
    const model = new ScriptedChatModel([textStep('{"n": 0}'), textStep('{"n": 3}')]);
    const { object } = await model.createStructure({ schema, messages: [user("x")] });
    expect(object).toEqual({ n: 3 });
    expect(model.calls[1]!.messages.at(-1)!.content).toMatch(/must be >= 1/);
  });

  it("should carry the schema as a forced synthetic tool when the provider has no structured output", async () => {
    const model = new ScriptedChatModel([toolCallStep("incident_report", { id: "INC-2", severity: "low" })], {
      supportsStructuredOutput: false,
    });
    const { object, output } = await model.createStructure({
      schema: incident,
      name: "incident_report",
      messages: [user("x")],
    });
    expect(object).toEqual({ id: "INC-2", severity: "low" });
    expect(output.toolCalls).toEqual([]);
    expect(output.meta.toolChoice).toBe("emulated");
    const sent = model.calls[0]!;
    expect(sent.responseFormat).toBeUndefined();
    expect(sent.toolChoice).toEqual({ type: "tool", name: "incident_report" });
    expect(sent.tools?.map((tool) => tool.name)).toEqual(["incident_report"]);
  });

  it("should put the schema into the prompt when the provider can neither take a schema nor force a tool", async () => {
    const model = new ScriptedChatModel([textStep('{"id": "INC-3", "severity": "high"}')], {
      supportsStructuredOutput: false,
      toolChoiceSupport: ["auto"],
    });
    const { object, output } = await model.createStructure({
      schema: incident,
      messages: [{ role: "system", content: "Be exact." }, user("x")],
    });
    expect(object).toEqual({ id: "INC-3", severity: "high" });
    expect(output.meta.toolChoice).toBe("prompt");
    const sent = model.calls[0]!;
    expect(sent.tools).toBeUndefined();
    expect(sent.responseFormat).toBeUndefined();
    expect(sent.messages[0]!.content).toMatch(/^Be exact\.\n\nAnswer with only a JSON value.*"severity"/s);
  });

  describe.each(callModes)("through %s", (mode) => {
    it("should parse free-form JSON asked for with { type: 'json' }", async () => {
      const model = new ScriptedChatModel([textStep('{"a": [1, 2]}')]);
      const { output } = await runCall(model, { messages: [user("x")], responseFormat: { type: "json" } }, mode);
      expect(output.object).toEqual({ a: [1, 2] });
      expect(model.calls[0]!.responseFormat).toEqual({ type: "json" });
    });

    it("should validate a responseFormat schema given to create", async () => {
      const model = new ScriptedChatModel([textStep('{"id": 5}'), textStep('{"id": "INC-4", "severity": "low"}')]);
      const { output } = await runCall(model, { messages: [user("x")], responseFormat: incident }, mode);
      expect(output.object).toEqual({ id: "INC-4", severity: "low" });
      expect(output.meta.attempts).toHaveLength(2);
    });
  });
});
