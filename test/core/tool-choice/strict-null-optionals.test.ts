import { describe, expect, it } from "vitest";
import { z } from "zod";
import * as z3 from "zod/v3";
import { defineTool, toolUnionSchema } from "../../../src/index.js";
import { ScriptedChatModel, rawStep, textStep } from "../../../src/testing/index.js";
import { callModes, runCall, user } from "../../support/run-modes.js";

/** A provider with OpenAI's profile: strict JSON-schema response formats with an object at the root, no forced tool_choice. */
const strictProvider = {
  strictResponseFormat: true,
  supportsTopLevelUnion: false,
  toolChoiceSupport: [],
  maxRepairAttempts: 0,
} as const;

const lineItems = z.object({ items: z.array(z.object({ name: z.string(), note: z.string().optional() })) });

/** Guest is reached through $defs, as MCP servers and zod's registries write it. */
const booking = {
  type: "object",
  properties: { guest: { $ref: "#/$defs/Guest" } },
  required: ["guest"],
  $defs: {
    Guest: { type: "object", properties: { name: { type: "string" }, phone: { type: "string" } }, required: ["name"] },
  },
};

describe("strict response formats", () => {
  describe.each(callModes)("through %s", (mode) => {
    it("should remove the nulls strict mode adds for optional fields of objects inside arrays (structured output)", async () => {
      const model = new ScriptedChatModel(
        [textStep('{"items": [{"name": "a", "note": null}, {"name": "b", "note": "x"}]}')],
        strictProvider,
      );
      const { output } = await runCall(model, { messages: [user("x")], responseFormat: lineItems }, mode);
      expect(output.object).toEqual({ items: [{ name: "a" }, { name: "b", note: "x" }] });
    });

    it("should remove the nulls strict mode adds for optional fields of objects inside arrays (tool union)", async () => {
      const save = defineTool({ name: "save", inputSchema: lineItems });
      const model = new ScriptedChatModel(
        [rawStep('{"item": {"name": "save", "parameters": {"items": [{"name": "a", "note": null}]}}}')],
        strictProvider,
      );
      const { output } = await runCall(model, { messages: [user("x")], tools: [save], toolChoice: "required" }, mode);
      expect(output.toolCalls[0]!.args).toEqual({ items: [{ name: "a" }] });
    });

    it("should remove the nulls strict mode adds for optional fields reached through $ref", async () => {
      const book = defineTool({ name: "book", inputSchema: booking });
      const model = new ScriptedChatModel(
        [rawStep('{"item": {"name": "book", "parameters": {"guest": {"name": "Ann", "phone": null}}}}')],
        strictProvider,
      );
      const { output } = await runCall(model, { messages: [user("x")], tools: [book], toolChoice: "required" }, mode);
      expect(output.toolCalls[0]!.args).toEqual({ guest: { name: "Ann" } });
    });

    it("should remove the nulls of a nullable optional object's optional fields", async () => {
      const schema = z.object({
        address: z.object({ street: z.string(), unit: z.string().optional() }).nullable().optional(),
      });
      const model = new ScriptedChatModel([textStep('{"address": {"street": "Main", "unit": null}}')], strictProvider);
      const { output } = await runCall(model, { messages: [user("x")], responseFormat: schema }, mode);
      expect(output.object).toEqual({ address: { street: "Main" } });
    });

    it.each([
      [
        "zod v4",
        z.discriminatedUnion("kind", [
          z.object({ kind: z.literal("outage"), note: z.string().optional() }),
          z.object({ kind: z.literal("deploy") }),
        ]),
      ],
      [
        "zod v3",
        z3.z.discriminatedUnion("kind", [
          z3.z.object({ kind: z3.z.literal("outage"), note: z3.z.string().optional() }),
          z3.z.object({ kind: z3.z.literal("deploy") }),
        ]),
      ],
    ])(
      "should remove the nulls strict mode adds for optional fields of the branch of a %s discriminated union the reply takes",
      async (_name, event) => {
        const model = new ScriptedChatModel([textStep('{"item": {"kind": "outage", "note": null}}')], strictProvider);
        const { output } = await runCall(model, { messages: [user("x")], responseFormat: event }, mode);
        expect(output.object).toEqual({ kind: "outage" });
      },
    );

    it("should remove the nulls strict mode adds for optional fields of the branch of a union of object shapes inside an object", async () => {
      const schema = z.object({
        target: z.union([z.object({ host: z.string(), port: z.number().optional() }), z.object({ url: z.string() })]),
      });
      const model = new ScriptedChatModel([textStep('{"target": {"host": "db", "port": null}}')], strictProvider);
      const { output } = await runCall(model, { messages: [user("x")], responseFormat: schema }, mode);
      expect(output.object).toEqual({ target: { host: "db" } });
    });

    it("should remove the nulls strict mode adds for optional fields of the values of a record, keeping its null values", async () => {
      const schema = z.object({
        owners: z.record(z.string(), z.object({ name: z.string(), email: z.string().optional() })),
        scores: z.record(z.string(), z.number().nullable()),
      });
      const model = new ScriptedChatModel(
        [textStep('{"owners": {"api": {"name": "Ann", "email": null}}, "scores": {"api": null}}')],
        strictProvider,
      );
      const { output } = await runCall(model, { messages: [user("x")], responseFormat: schema }, mode);
      expect(output.object).toEqual({ owners: { api: { name: "Ann" } }, scores: { api: null } });
    });

    it("should remove the nulls strict mode adds for optional fields of an object in a tuple", async () => {
      const schema = z.object({
        pair: z.tuple([z.object({ name: z.string(), note: z.string().optional() }), z.number()]),
      });
      const model = new ScriptedChatModel([textStep('{"pair": [{"name": "a", "note": null}, 1]}')], strictProvider);
      const { output } = await runCall(model, { messages: [user("x")], responseFormat: schema }, mode);
      expect(output.object).toEqual({ pair: [{ name: "a" }, 1] });
    });

    it("should remove the nulls strict mode adds for optional fields at every depth of a recursive schema", async () => {
      interface Folder {
        name: string;
        children?: Folder[] | undefined;
      }
      const folder: z.ZodType<Folder> = z.object({
        name: z.string(),
        get children() {
          return z.array(folder).optional();
        },
      });
      const model = new ScriptedChatModel(
        [textStep('{"name": "root", "children": [{"name": "leaf", "children": null}]}')],
        strictProvider,
      );
      const { output } = await runCall(model, { messages: [user("x")], responseFormat: folder }, mode);
      expect(output.object).toEqual({ name: "root", children: [{ name: "leaf" }] });
    });
  });
});

describe("toolUnionSchema in strict mode", () => {
  it("should close an object that lists no properties (a tool without parameters), as strict mode demands of every object", () => {
    const ping = defineTool({ name: "ping", inputSchema: { type: "object" } });
    const schema = toolUnionSchema([ping], { strict: true });
    expect((schema.properties as Record<string, unknown>).parameters).toEqual({
      type: "object",
      properties: {},
      required: [],
      additionalProperties: false,
    });
  });
});
