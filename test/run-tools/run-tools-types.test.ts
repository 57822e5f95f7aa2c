// Types a user relies on; `npm run typecheck` fails when they regress, the runs check the values.
import { describe, expect, expectTypeOf, it } from "vitest";
import { z } from "zod";
import type { RunError, RunErrorReason, RunResult } from "../../src/index.js";
import { defineTool, runTools, streamTools } from "../../src/index.js";
import { ScriptedChatModel, textStep } from "../../src/testing/index.js";

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
    expectTypeOf(plain).toEqualTypeOf<RunResult<unknown>>();
    expect(plain.object).toBeUndefined();
  });

  it("should name every RunError reason", () => {
    expectTypeOf<RunError["reason"]>().toEqualTypeOf<RunErrorReason>();
    expectTypeOf<RunErrorReason>().toEqualTypeOf<"model-error" | "aborted" | "tool-error" | "max-steps" | "budget">();
  });
});
