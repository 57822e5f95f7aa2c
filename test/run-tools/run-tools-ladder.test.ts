// runTools on models whose provider lacks tool_choice: every rung of the ladder under one loop.
import { describe, expect, it } from "vitest";
import { z } from "zod";
import type { Message } from "../../src/index.js";
import { defineTool } from "../../src/index.js";
import { ScriptedChatModel, rawStep, textStep, toolCallStep } from "../../src/testing/index.js";
import { runIn, runModes } from "../support/run-tools-modes.js";

const messages: Message[] = [{ role: "user", content: "What is going on with INC-001?" }];
const lookup = defineTool({
  name: "lookup_incident",
  inputSchema: z.object({ incident_id: z.string() }),
  execute: ({ incident_id }) => `${String(incident_id)}: auth-api outage`,
});
const answer = defineTool({ name: "answer", inputSchema: z.object({ summary: z.string() }) });
const union = (name: string, parameters: object) => rawStep(JSON.stringify({ name, parameters }));

const profiles = [
  { rung: "response-format", options: { toolChoiceSupport: new Set<never>() } },
  { rung: "prompt", options: { toolChoiceSupport: new Set<never>(), supportsStructuredOutput: false } },
] as const;

describe.each(runModes)("%s", (mode) => {
  describe.each(profiles)("on the $rung rung (toolChoiceSupport: new Set())", ({ rung, options }) => {
    it("should force each step's call through the tool union and end on the tool without execute", async () => {
      const model = new ScriptedChatModel(
        [
          union("lookup_incident", { incident_id: "INC-001" }),
          union("answer", { summary: "INC-001 is an auth-api outage." }),
        ],
        options,
      );
      const { run } = await runIn(mode, { model, messages, tools: [lookup, answer], toolChoice: "required" });

      expect(run.steps.map((step) => step.output.meta.toolChoice)).toEqual([rung, rung]);
      for (const call of model.calls) {
        expect(call.tools).toBeUndefined();
        expect(call.toolChoice).toBeUndefined();
        if (rung === "response-format") expect(call.responseFormat).toMatchObject({ type: "json-schema" });
        else expect(call.messages[0]).toMatchObject({ role: "system" });
      }
      expect(run.toolCalls).toEqual([
        {
          type: "tool-call",
          id: expect.stringMatching(/^call_[a-z0-9]{8}$/),
          name: "answer",
          args: { summary: "INC-001 is an auth-api outage." },
        },
      ]);
      // The union reply came back as an ordinary call, executed and answered with its id.
      const [, assistant, tool] = run.messages;
      const callId = (assistant as { content: { id: string }[] }).content[0]!.id;
      expect(tool).toEqual({
        role: "tool",
        toolCallId: callId,
        toolName: "lookup_incident",
        content: "INC-001: auth-api outage",
      });
      expect(model.calls[1]!.messages).toContainEqual(tool);
    });

    it("should end on the parsed object with a responseFormat and toolChoice auto", async () => {
      const model = new ScriptedChatModel(
        [toolCallStep("lookup_incident", { incident_id: "INC-001" }), textStep('{"service": "auth-api"}')],
        options,
      );
      const { run } = await runIn(mode, {
        model,
        messages,
        tools: [lookup],
        responseFormat: z.object({ service: z.string() }),
      });
      expect(run.object).toEqual({ service: "auth-api" });
      expect(run.messages[2]).toMatchObject({ role: "tool", content: "INC-001: auth-api outage" });
    });
  });
});
