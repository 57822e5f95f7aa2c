import { describe, expect, it } from "vitest";
import { z } from "zod";
import { defineTool, type ChatModelOutput } from "../../src/index.js";
import { ScriptedChatModel, rawStep, toolCallStep } from "../../src/testing/index.js";

// docs/repair.md, "Tool calls written as text": what `fixInvalidToolCalls: false` turns off.
const messages = [{ role: "user" as const, content: "What is going on with INC-001?" }];
const lookupIncident = defineTool({ name: "lookup_incident", inputSchema: z.object({ incident_id: z.string() }) });
const good = toolCallStep("lookup_incident", { incident_id: "INC-002" });

async function run(
  model: ScriptedChatModel,
  stream: boolean,
  toolChoice: "auto" | "required" = "auto",
): Promise<ChatModelOutput> {
  const input = { messages, tools: [lookupIncident], toolChoice };
  if (!stream) return model.create(input);
  const result = model.createStream(input);
  for await (const _ of result) void _;
  return result.final();
}

describe.each([false, true])("docs/repair.md: fixInvalidToolCalls: false (stream: %s)", (stream) => {
  it.each([
    ["broken JSON", '{"incident_id": "INC-001",}'],
    ["doubly encoded JSON", JSON.stringify(JSON.stringify({ incident_id: "INC-001" }))],
    ["fenced JSON", '```json\n{"incident_id": "INC-001"}\n```'],
  ])("should re-ask %s arguments rather than repair them", async (_, args) => {
    const model = new ScriptedChatModel([toolCallStep("lookup_incident", args), good], { fixInvalidToolCalls: false });
    const output = await run(model, stream);
    expect(output.toolCalls[0]!.args).toEqual({ incident_id: "INC-002" });
    expect(output.meta.attempts).toHaveLength(2);
    expect(output.meta.attempts[0]!.rejected).toMatch(/lookup_incident/);
    expect(output.meta.repairs.map((repair) => repair.kind)).toEqual(["missing-id"]);
  });

  it("should still fill missing ids and read a tool-union reply leniently", async () => {
    const model = new ScriptedChatModel(
      [rawStep('```json\n{"name": "lookup_incident", "parameters": {"incident_id": "INC-001",}}\n```')],
      {
        fixInvalidToolCalls: false,
        toolChoiceSupport: [],
      },
    );
    const output = await run(model, stream, "required");
    expect(output.meta.toolChoice).toBe("response-format");
    expect(output.toolCalls[0]).toMatchObject({
      name: "lookup_incident",
      args: { incident_id: "INC-001" },
      id: expect.stringMatching(/^call_[a-z0-9]{8}$/),
    });
    expect(output.meta.attempts).toHaveLength(1);
  });

  it("should not recover a tool call written as text", async () => {
    const model = new ScriptedChatModel(
      [rawStep('<tool_call>{"name": "lookup_incident", "arguments": {"incident_id": "INC-001"}}</tool_call>'), good],
      {
        fixInvalidToolCalls: false,
      },
    );
    const output = await run(model, stream, "required");
    expect(output.toolCalls[0]!.args).toEqual({ incident_id: "INC-002" });
    expect(output.meta.attempts).toHaveLength(2);
  });
});
