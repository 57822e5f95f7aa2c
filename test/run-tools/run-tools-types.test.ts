// Types a user relies on; `npm run typecheck` fails when they regress, the runs check the values.
import { describe, expect, expectTypeOf, it } from "vitest";
import { z } from "zod";
import type { RunError, RunErrorReason, RunResult, ToolCall } from "../../src/index.js";
import { defineTool, runTools, streamTools } from "../../src/index.js";
import { ScriptedChatModel, textStep, toolCallStep } from "../../src/testing/index.js";

const messages = [{ role: "user" as const, content: "Summarise INC-001." }];
const lookup = defineTool({ name: "lookup_incident", inputSchema: z.object({ incident_id: z.string() }) });

describe("runTools types", () => {
  it("should type run.object from a zod responseFormat, and as unknown without one", async () => {
    const schema = z.object({ service: z.string(), severity: z.number() });
    const typed = await runTools({
      model: new ScriptedChatModel([textStep('{"service": "auth-api", "severity": 1}')]),
      messages,
      tools: [lookup],
      responseFormat: schema,
    });
    expectTypeOf(typed.object).toEqualTypeOf<{ service: string; severity: number } | undefined>();
    expect(typed.object?.severity).toBe(1);

    const streamed = await streamTools({
      model: new ScriptedChatModel([textStep('{"service": "auth-api", "severity": 2}')]),
      messages,
      tools: [lookup],
      responseFormat: { type: "json-schema", schema },
    }).final();
    expectTypeOf(streamed.object).toEqualTypeOf<{ service: string; severity: number } | undefined>();
    expect(streamed.object?.service).toBe("auth-api");

    const plain = await runTools({ model: new ScriptedChatModel([textStep("ok")]), messages, tools: [lookup] });
    expectTypeOf(plain).toEqualTypeOf<RunResult<unknown, ToolCall<"lookup_incident", { incident_id: string }>>>();
    expect(plain.object).toBeUndefined();
  });

  it("should name every RunError reason", () => {
    expectTypeOf<RunError["reason"]>().toEqualTypeOf<RunErrorReason>();
    expectTypeOf<RunErrorReason>().toEqualTypeOf<
      "model-error" | "aborted" | "tool-error" | "tool-output" | "max-steps" | "budget"
    >();
  });
});

describe("runTools loop types", () => {
  const restart = defineTool({
    name: "restart_service",
    inputSchema: z.object({ service: z.string(), force: z.boolean() }),
    needsApproval: true,
    execute: ({ service }) => `${service} restarted`,
  });
  type Calls =
    | ToolCall<"lookup_incident", { incident_id: string }>
    | ToolCall<"restart_service", { service: string; force: boolean }>;

  it("should narrow authorize's call, steps' calls and pending approvals by tool name", async () => {
    const model = new ScriptedChatModel([
      toolCallStep("restart_service", { service: "auth-api", force: false }, { id: "c1" }),
    ]);
    const run = await runTools({
      model,
      messages,
      tools: [lookup, restart],
      authorize: (call) => {
        expectTypeOf(call).toEqualTypeOf<Calls>();
        if (call.name === "restart_service") return call.args.force ? "ask" : true;
        return call.args.incident_id.startsWith("INC-");
      },
      onStep: (step) => {
        expectTypeOf(step.output.toolCalls).toEqualTypeOf<Calls[]>();
      },
    });
    expectTypeOf(run.steps[0]!.output.toolCalls).toEqualTypeOf<Calls[]>();
    expectTypeOf(run.pendingApprovals[0]!.toolCall).toEqualTypeOf<Calls>();
    const pending = run.pendingApprovals[0]!.toolCall;
    if (pending.name === "restart_service") expect(pending.args.service).toBe("auth-api");
    expect(run.status).toBe("awaiting-approval");
  });

  it("should narrow streamTools' tool-call and tool-result parts by tool name", async () => {
    const model = new ScriptedChatModel([
      toolCallStep("lookup_incident", { incident_id: "INC-001" }),
      textStep("An outage."),
    ]);
    const stream = streamTools({ model, messages, tools: [{ ...lookup, execute: () => "outage" }] });
    const names: string[] = [];
    for await (const part of stream) {
      if (part.type === "tool-call") {
        expectTypeOf(part.toolCall.args).toEqualTypeOf<{ incident_id: string }>();
        names.push(part.toolCall.args.incident_id);
      }
      if (part.type === "tool-result") expectTypeOf(part.toolResult.toolCall.name).toEqualTypeOf<"lookup_incident">();
    }
    expect(names).toEqual(["INC-001"]);
  });
});
