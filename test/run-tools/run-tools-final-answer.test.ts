// runTools with a responseFormat ends when a step returns the object, on every rung of the ladder
// (docs/run-tools.md, "A final answer in a shape"); the synthetic answer is never executed.
import { describe, expect, it } from "vitest";
import { z } from "zod";
import type { ChatModelOptions, Message } from "../../src/index.js";
import { defineTool } from "../../src/index.js";
import { ScriptedChatModel, rawStep, textStep, toolCallStep } from "../../src/testing/index.js";
import { runIn, runModes } from "../support/run-tools-modes.js";

const answerName = "keelson_final_answer";
const executed: string[] = [];
const lookup = defineTool({
  name: "lookup_incident",
  inputSchema: z.object({ incident_id: z.string() }),
  execute: ({ incident_id }) => {
    executed.push(incident_id);
    return { service: "auth-api", status: "outage" };
  },
});
const verdict = z.object({ service: z.string(), severity: z.number() });
const question = (): Message[] => [{ role: "user", content: "What is going on with INC-001?" }];
const answer = { service: "auth-api", severity: 1 };

/** Each rung: the model's options, its reply calling the tool, and its reply giving the answer. */
const rungs: [string, ChatModelOptions, ReturnType<typeof textStep>, ReturnType<typeof textStep>][] = [
  [
    "native (tools and response format together)",
    {},
    toolCallStep("lookup_incident", { incident_id: "INC-001" }),
    textStep(JSON.stringify(answer)),
  ],
  [
    "native (a forced answer tool)",
    { supportsResponseFormatWithTools: false },
    toolCallStep("lookup_incident", { incident_id: "INC-001" }),
    toolCallStep(answerName, answer),
  ],
  [
    "response-format",
    { supportsResponseFormatWithTools: false, toolChoiceSupport: [] },
    rawStep('{"name": "lookup_incident", "parameters": {"incident_id": "INC-001"}}'),
    rawStep(JSON.stringify({ name: answerName, parameters: answer })),
  ],
  [
    "prompt",
    { supportsToolCalling: false, supportsStructuredOutput: false, toolChoiceSupport: [] },
    rawStep('{"name": "lookup_incident", "parameters": {"incident_id": "INC-001"}}'),
    rawStep(JSON.stringify({ name: answerName, parameters: answer })),
  ],
];

describe.each(runModes)("%s", (mode) => {
  it.each(rungs)("should run the tool, then end on the object, on the %s rung", async (_rung, options, call, reply) => {
    executed.length = 0;
    const model = new ScriptedChatModel([call, reply], options);
    const { run } = await runIn(mode, { model, messages: question(), tools: [lookup], responseFormat: verdict });
    expect(run.object).toEqual(answer);
    expect(run.toolCalls).toEqual([]);
    expect(executed).toEqual(["INC-001"]);
    expect(run.steps).toHaveLength(2);
    // The answer is no tool call: nothing was executed for it, and the transcript ends on its text.
    expect(run.steps[1]!.toolResults).toEqual([]);
    expect(run.messages.at(-1)).toEqual({ role: "assistant", content: JSON.stringify(answer) });
    expect(run.messages.map((message) => message.role)).toEqual(["user", "assistant", "tool", "assistant"]);
    expect(model.calls).toHaveLength(2);
  });
});
