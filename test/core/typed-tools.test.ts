// Typed tools: these lines are compiled by `npm run typecheck` (test/ is in the tsconfig's include),
// so a wrong access that compiled (an `@ts-expect-error` with no error under it) fails CI; the
// calls also run, so the types describe what the calls really return.
import { describe, expect, expectTypeOf, it } from "vitest";
import { z } from "zod";
import { z as z3 } from "zod/v3";
import { defineTool, type Tool, type ToolCall, type ToolDefinition } from "../../src/index.js";
import { ScriptedChatModel, textStep, toolCallStep, toolCallsStep } from "../../src/testing/index.js";

const lookupIncident = defineTool({
  name: "lookup_incident",
  inputSchema: z.object({ incident_id: z.string(), verbose: z.boolean().optional() }),
});
const getWeather = defineTool({
  name: "get_weather",
  inputSchema: z3.object({ city: z3.string(), days: z3.number() }),
});
const search = defineTool<{ query: string; limit?: number }, "search">({
  name: "search",
  inputSchema: {
    type: "object",
    properties: { query: { type: "string" }, limit: { type: "integer" } },
    required: ["query"],
  },
});
const ping = defineTool({ name: "ping", inputSchema: { type: "object", properties: {} } });
type ArgsOf<T extends Tool<string, unknown>> = Parameters<NonNullable<T["execute"]>>[0];
const user = (content: string) => ({ role: "user" as const, content });

describe("typed tools", () => {
  it("should infer the arguments from a zod v4 or v3 schema and keep the name as a literal type", () => {
    expectTypeOf(lookupIncident).toEqualTypeOf<
      Tool<"lookup_incident", { incident_id: string; verbose?: boolean | undefined }>
    >();
    expectTypeOf(getWeather.name).toEqualTypeOf<"get_weather">();
    expectTypeOf<ArgsOf<typeof getWeather>>().toEqualTypeOf<{ city: string; days: number }>();
    expectTypeOf(lookupIncident.name).toEqualTypeOf<"lookup_incident">();
    // @ts-expect-error the name is a literal type, not any string
    const wrongName: typeof lookupIncident.name = "lookup";
    expect(wrongName).toBe("lookup");
  });

  it("should take a JSON Schema tool's argument type as a type parameter, and default it to an object of unknowns", () => {
    expectTypeOf(search).toEqualTypeOf<Tool<"search", { query: string; limit?: number }>>();
    expectTypeOf(ping).toEqualTypeOf<Tool<"ping", Record<string, unknown>>>();
  });

  it("should type execute's arguments and context from the schema", async () => {
    const tool = defineTool({
      name: "lookup_incident",
      inputSchema: z.object({ incident_id: z.string() }),
      execute: (args, { signal, toolCall }) => {
        expectTypeOf(args).toEqualTypeOf<{ incident_id: string }>();
        expectTypeOf(signal).toEqualTypeOf<AbortSignal>();
        expectTypeOf(toolCall).toEqualTypeOf<ToolCall<"lookup_incident", { incident_id: string }>>();
        // @ts-expect-error no such argument
        void args.incident;
        return `${toolCall.name}: ${args.incident_id.toUpperCase()}`;
      },
    });
    const toolCall = {
      type: "tool-call",
      id: "call_1",
      name: "lookup_incident",
      args: { incident_id: "inc-1" },
    } as const;
    const context = { signal: new AbortController().signal, toolCall, executionId: "run-1:step-0:call-0" };
    const result = await tool.execute?.(toolCall.args, context);
    expect(result).toBe("lookup_incident: INC-1");
  });

  it("should return toolCalls as a union discriminated by name from create", async () => {
    const model = new ScriptedChatModel(
      [
        toolCallsStep([
          { name: "lookup_incident", args: { incident_id: "INC-001" } },
          { name: "get_weather", args: { city: "Oslo", days: 2 } },
        ]),
      ],
      { allowParallelToolCalls: true },
    );
    const output = await model.create({
      messages: [user("INC-001 and the weather?")],
      tools: [lookupIncident, getWeather],
    });
    const seen: string[] = [];
    for (const call of output.toolCalls) {
      if (call.name === "lookup_incident") {
        const id: string = call.args.incident_id;
        seen.push(id);
        // @ts-expect-error city belongs to get_weather, not lookup_incident
        void call.args.city;
      } else {
        expectTypeOf(call.name).toEqualTypeOf<"get_weather">();
        const days: number = call.args.days;
        seen.push(`${call.args.city}:${days}`);
        // @ts-expect-error incident_id belongs to lookup_incident
        void call.args.incident_id;
      }
    }
    // @ts-expect-error no tool is called "lookup"
    void output.toolCalls.filter((call) => call.name === "lookup");
    expect(seen).toEqual(["INC-001", "Oslo:2"]);
  });

  it("should type the streamed output's toolCalls the same way", async () => {
    const model = new ScriptedChatModel([toolCallStep("search", { query: "auth-api" })]);
    const output = await model.createStream({ messages: [user("search")], tools: [search, ping] }).final();
    const [call] = output.toolCalls;
    expectTypeOf(call!).toEqualTypeOf<
      ToolCall<"search", { query: string; limit?: number }> | ToolCall<"ping", Record<string, unknown>>
    >();
    if (!call || call.name !== "search") throw new Error(`expected a call to search, got ${call?.name}`);
    const query: string = call.args.query;
    // @ts-expect-error limit is optional: a number or undefined
    const limit: number = call.args.limit;
    expect([query, limit]).toEqual(["auth-api", undefined]);
  });

  it("should keep calls untyped when no tools, or untyped tools, are given", async () => {
    const model = new ScriptedChatModel([toolCallStep("anything", { x: 1 })]);
    const tools: ToolDefinition[] = [{ name: "anything", inputSchema: { type: "object" } }];
    const output = await model.create({ messages: [user("go")], tools });
    expectTypeOf(output.toolCalls).toEqualTypeOf<ToolCall[]>();
    expect(output.toolCalls[0]?.args).toEqual({ x: 1 });
  });

  it("should type output.object from the responseFormat's zod schema beside typed tools", async () => {
    const verdict = z.object({ service: z.string(), severity: z.number() });
    const model = new ScriptedChatModel([textStep('{"service": "auth-api", "severity": 1}')]);
    const output = await model.create({
      messages: [user("triage")],
      tools: [lookupIncident],
      responseFormat: { type: "json-schema", schema: verdict },
    });
    expectTypeOf(output.object).toEqualTypeOf<{ service: string; severity: number } | undefined>();
    expectTypeOf(output.toolCalls).toEqualTypeOf<
      ToolCall<"lookup_incident", { incident_id: string; verbose?: boolean | undefined }>[]
    >();
    // @ts-expect-error severity is a number
    const severity: string | undefined = output.object?.severity;
    expect([output.object?.service, severity]).toEqual(["auth-api", 1]);

    // A schema given as the format itself, and the streamed output, are typed the same way.
    const streamed = new ScriptedChatModel([textStep('{"service": "billing", "severity": 2}')]);
    const final = await streamed
      .createStream({ messages: [user("triage")], tools: [ping], responseFormat: verdict })
      .final();
    expectTypeOf(final.object).toEqualTypeOf<{ service: string; severity: number } | undefined>();
    expect(final.object?.service).toBe("billing");

    // A JSON Schema (or free JSON) gives unknown; no responseFormat leaves it unknown too.
    const json = await new ScriptedChatModel([textStep("{}")]).create({
      messages: [user("x")],
      responseFormat: { type: "json" },
    });
    expectTypeOf(json.object).toEqualTypeOf<unknown>();
    const plain = await new ScriptedChatModel([textStep("hi")]).create({ messages: [user("x")] });
    expectTypeOf(plain.object).toEqualTypeOf<unknown>();
  });
});
