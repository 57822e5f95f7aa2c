import { describe, expect, expectTypeOf, it } from "vitest";
import { defineTool, runTools, ToolCallError, type ChatModelInput } from "../../src/index.js";
import { ScriptedChatModel, textStep, toolCallStep } from "../../src/testing/index.js";

const schema = {
  type: "object",
  properties: { incident_id: { type: "string" } },
  required: ["incident_id"],
  additionalProperties: false,
} as const;
const listed = { name: "lookup_incident", description: "An incident's status", parameters: schema } as const;
const openAI = {
  type: "function",
  function: { name: "lookup_incident", description: "An incident's status", parameters: schema, strict: true },
} as const;
const messages: ChatModelInput["messages"] = [{ role: "user", content: "INC-1?" }];

describe("readToolShape, through defineTool: tools from elsewhere", () => {
  it.each([
    ["{ name, description, parameters }", listed],
    ['OpenAI\'s { type: "function", function }', openAI],
  ])("should take %s as it is", (_shape, given) => {
    const tool = "type" in given ? defineTool(given) : defineTool(given);
    expect(tool).toMatchObject({ name: "lookup_incident", description: "An incident's status", parameters: schema });
  });

  it.each([
    ["{ name, description, parameters }", listed],
    ['OpenAI\'s { type: "function", function }', openAI],
  ])(
    "should send %s to the provider and validate calls against its schema, in create and createStream",
    async (_shape, given) => {
      for (const mode of ["create", "createStream"] as const) {
        const model = new ScriptedChatModel(
          [
            toolCallStep("lookup_incident", { incident_id: 7 }, { id: "c1" }),
            toolCallStep("lookup_incident", { incident_id: "INC-1" }, { id: "c2" }),
          ],
          { maxRepairAttempts: 1 },
        );
        const input = { messages, tools: [given], toolChoice: "required" as const };
        const output = mode === "create" ? await model.create(input) : await model.createStream(input).final();
        expect(model.calls[0]!.tools).toEqual([
          { name: "lookup_incident", description: "An incident's status", parameters: schema },
        ]);
        // The first call's number was refused by the schema and re-asked.
        expect(model.calls).toHaveLength(2);
        expect(output.toolCalls.map((call) => [call.name, call.args])).toEqual([
          ["lookup_incident", { incident_id: "INC-1" }],
        ]);
      }
    },
  );

  it("should keep each shape's name as a literal type, in defineTool and in create's tool calls", async () => {
    expectTypeOf(defineTool(listed).name).toEqualTypeOf<"lookup_incident">();
    expectTypeOf(defineTool(openAI).name).toEqualTypeOf<"lookup_incident">();
    const model = new ScriptedChatModel([toolCallStep("lookup_incident", { incident_id: "INC-1" }, { id: "c1" })]);
    const page = { name: "page", parameters: schema } as const;
    const output = await model.create({ messages, tools: [openAI, page] });
    const [call] = output.toolCalls;
    expectTypeOf(call!.name).toEqualTypeOf<"lookup_incident" | "page">();
    expect(call!.name).toBe("lookup_incident");
  });

  it("should run an OpenAI-form tool's execute (beside function) in runTools", async () => {
    const seen: unknown[] = [];
    const model = new ScriptedChatModel([
      toolCallStep("lookup_incident", { incident_id: "INC-1" }, { id: "c1" }),
      textStep("INC-1 is open."),
    ]);
    const run = await runTools({
      model,
      messages,
      tools: [{ ...openAI, execute: (args: Record<string, unknown>) => (seen.push(args), { status: "open" }) }],
    });
    expect(seen).toEqual([{ incident_id: "INC-1" }]);
    expect(run.text).toBe("INC-1 is open.");
  });

  it.each([
    [null, /A tool must be an object: \{ name, description\?, inputSchema, execute\? \}.*; got null\./],
    ["lookup", /A tool must be an object: .*got the string "lookup"\./],
    [[listed], /A tool must be an object: .*got an array of 1\./],
    [
      { title: "lookup", schema },
      /Expected a tool: .*parameters.*type: "function".*; got an object with title, schema\./,
    ],
    [{ function: { name: "x" } }, /OpenAI's form is \{ type: "function", function: .*got an object with function\./],
    [{ type: "function", function: "x" }, /OpenAI's form is .*got an object with type, function\./],
    [{ name: "lookup" }, /Tool 'lookup' has no inputSchema and no parameters: give .* z\.object\(\{\}\)/],
    [
      { name: "lookup", parameters: "{}" },
      /Tool "lookup": parameters must be a JSON Schema object, got the string "\{\}"\./,
    ],
    [{ type: "function", function: { name: "bad name", parameters: schema } }, /Invalid tool name "bad name"/],
  ])("should refuse %j with a TypeError saying what was found and what is expected", (given, message) => {
    expect(() => defineTool(given as never)).toThrow(TypeError);
    expect(() => defineTool(given as never)).toThrow(message);
  });

  it("should read an OpenAI function with no parameters as a tool without arguments", () => {
    expect(defineTool({ type: "function", function: { name: "ping" } }).parameters).toEqual({
      type: "object",
      properties: {},
    });
  });

  it("should re-read a tools array whose OpenAI tool's function was replaced", async () => {
    const tools = [{ type: "function" as const, function: { name: "first", parameters: schema } }];
    const model = new ScriptedChatModel([textStep("a"), textStep("b")]);
    await model.create({ messages, tools });
    tools[0]!.function = { name: "second", parameters: schema };
    await model.create({ messages, tools });
    expect(model.calls.map((call) => call.tools?.[0]?.name)).toEqual(["first", "second"]);
  });

  it("should keep refusing a call whose arguments break an OpenAI tool's schema", async () => {
    const model = new ScriptedChatModel([toolCallStep("lookup_incident", { incident_id: 7 }, { id: "c1" })], {
      maxRepairAttempts: 0,
    });
    await expect(model.create({ messages, tools: [openAI], toolChoice: "required" })).rejects.toSatisfy(
      ToolCallError.isInstance,
    );
  });
});
