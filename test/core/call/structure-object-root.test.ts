import { Ajv } from "ajv";
import { describe, expect, it } from "vitest";
import { z } from "zod";
import { ScriptedChatModel, textStep } from "../../../src/testing/index.js";
import { callModes, runCall, user } from "../../support/run-modes.js";

/** OpenAI's and Bedrock's profile: a response format must have an object at its root. */
const objectRoot = { supportsTopLevelUnion: false, strictResponseFormat: true, maxRepairAttempts: 0 } as const;

const event = z.discriminatedUnion("kind", [
  z.object({ kind: z.literal("outage"), service: z.string() }),
  z.object({ kind: z.literal("deploy"), version: z.string() }),
]);

/**
 * A recursive schema of sums on an object-root provider: the nested answer, as a provider holding to
 * the wrapped schema it was sent writes it, is read back unwrapped, and that schema accepts it.
 */
async function expectNestedSumsRead(expression: z.ZodType): Promise<void> {
  const wire = '{"item": {"sum": [1, {"sum": [2, 3]}]}}';
  const model = new ScriptedChatModel([textStep(wire)], objectRoot);
  const { object } = await model.createStructure({ schema: expression, messages: [user("x")] });
  expect(object).toEqual({ sum: [1, { sum: [2, 3] }] });
  const sent = (model.calls[0]!.responseFormat as { schema: Record<string, unknown> }).schema;
  expect(new Ajv({ strict: false }).compile(sent)(JSON.parse(wire))).toBe(true);
}

describe("structured output on a provider that wants an object root", () => {
  describe.each(callModes)("through %s", (mode) => {
    it.each([
      ["an array", z.array(z.number()), "[1, 2]", [1, 2]],
      ["a union", event, '{"kind": "deploy", "version": "1.2"}', { kind: "deploy", version: "1.2" }],
    ])("should wrap %s schema as { item } on the wire and unwrap the reply", async (_name, schema, inner, expected) => {
      const model = new ScriptedChatModel([textStep(`{"item": ${inner}}`)], objectRoot);
      const { output } = await runCall(model, { messages: [user("x")], responseFormat: schema }, mode);
      const sent = model.calls[0]!.responseFormat as { schema: Record<string, unknown> };
      expect(sent.schema).toMatchObject({ type: "object", required: ["item"], additionalProperties: false });
      expect(output.object).toEqual(expected);
      // The caller's text is the object's JSON, not the wire's wrapper.
      expect(JSON.parse(output.text)).toEqual(expected);
    });

    it("should send an object schema as it is", async () => {
      const model = new ScriptedChatModel([textStep('{"id": "a"}')], objectRoot);
      const { output } = await runCall(
        model,
        { messages: [user("x")], responseFormat: z.object({ id: z.string() }) },
        mode,
      );
      expect((model.calls[0]!.responseFormat as { schema: Record<string, unknown> }).schema.properties).toEqual({
        id: { type: "string" },
      });
      expect(output.object).toEqual({ id: "a" });
    });
  });

  it("should keep a recursive union's '#' reference pointing at the union once it is wrapped as { item }", async () => {
    type Expression = number | { sum: Expression[] };
    const expression: z.ZodType<Expression> = z.union([
      z.number(),
      z.object({
        get sum() {
          return z.array(expression);
        },
      }),
    ]);
    await expectNestedSumsRead(expression);
  });

  it("should keep a '#' reference inside a definition pointing at the union once it is wrapped as { item }", async () => {
    // A branch with an id of its own goes into $defs: its recursion back to the root is there, not in the body.
    type Expression = number | { sum: Expression[] };
    const sum: z.ZodType<{ sum: Expression[] }> = z
      .object({
        get sum() {
          return z.array(expression);
        },
      })
      .meta({ id: "sum" });
    const expression: z.ZodType<Expression> = z.union([z.number(), sum]);
    await expectNestedSumsRead(expression);
  });

  it("should give createStructure the unwrapped array", async () => {
    const model = new ScriptedChatModel([textStep('{"item": ["a", "b"]}')], objectRoot);
    const { object } = await model.createStructure({ schema: z.array(z.string()), messages: [user("x")] });
    expect(object).toEqual(["a", "b"]);
  });
});
