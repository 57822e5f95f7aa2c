// Control before each step (prepareStep) and the run's events (onEvent).
import { describe, expect, it, vi } from "vitest";
import { z } from "zod";
import type { Message, RunEvent } from "../../src/index.js";
import { defineTool } from "../../src/index.js";
import { ScriptedChatModel, textStep, toolCallStep } from "../../src/testing/index.js";
import { answerStep, callStep, runProfiles } from "../support/run-tools-profiles.js";
import { runIn, runModes } from "../support/run-tools-modes.js";

const question = (): Message[] => [
  { role: "system", content: "You are an on-call assistant." },
  { role: "user", content: "Fix INC-001." },
];
const lookup = defineTool({
  name: "lookup_incident",
  inputSchema: z.object({ incident_id: z.string() }),
  execute: ({ incident_id }) => `${incident_id}: auth-api outage`,
});
const deploy = defineTool({
  name: "deploy",
  inputSchema: z.object({ service: z.string() }),
  execute: ({ service }) => `${service} deployed`,
});
const answer = defineTool({ name: "answer", inputSchema: z.object({ summary: z.string() }) });

describe.each(runModes)("%s", (mode) => {
  describe.each(runProfiles)("on the $rung rung", (profile) => {
    const toolChoice = profile.rung === "native" ? undefined : ("required" as const);
    const offered = (call: { tools?: { name: string }[]; messages: Message[]; responseFormat?: unknown }) =>
      profile.rung === "native"
        ? call.tools!.map((tool) => tool.name)
        : // On the union rungs the offered tools travel in the union (the response format, or the prompt).
          JSON.stringify(call.responseFormat ?? call.messages[0]);

    it("should offer only activeTools, and list unavailableTools with their reasons in a temporary note", async () => {
      const model = new ScriptedChatModel(
        [callStep(profile, "lookup_incident", { incident_id: "INC-001" }), answerStep(profile, "Looked up.")],
        profile.options,
      );
      const prepareStep = vi.fn(({ step }: { step: number }) =>
        step === 0
          ? {
              activeTools: ["lookup_incident", "answer"],
              unavailableTools: { deploy: "a change freeze holds until 18:00" },
            }
          : undefined,
      );
      const { run } = await runIn(mode, {
        model,
        messages: question(),
        tools: [lookup, deploy, answer],
        toolChoice,
        prepareStep,
      });

      const first = model.calls[0]!;
      const note = {
        role: "system",
        content: "These tools cannot be used at this step:\n- deploy: a change freeze holds until 18:00",
      };
      expect(first.messages).toContainEqual(note);
      if (profile.rung === "native") expect(offered(first)).toEqual(["lookup_incident", "answer"]);
      else expect(offered(first)).not.toContain('"deploy"');
      // The note was for that step only: never in run.messages, not sent with the next step.
      expect(run.messages).not.toContainEqual(note);
      expect(model.calls[1]!.messages).not.toContainEqual(note);
      if (profile.rung === "native") expect(offered(model.calls[1]!)).toEqual(["lookup_incident", "deploy", "answer"]);
      expect(prepareStep.mock.calls.map(([context]) => context.step)).toEqual([0, 1]);
    });
  });

  it("should send prepareStep's messages for that step without touching run.messages, and use its toolChoice and model", async () => {
    const model = new ScriptedChatModel([toolCallStep("lookup_incident", { incident_id: "INC-001" }), textStep("x")]);
    const other = new ScriptedChatModel([textStep("INC-001 is an auth-api outage.")]);
    const seen: { messages: readonly Message[]; steps: number }[] = [];
    const { run } = await runIn(mode, {
      model,
      messages: question(),
      tools: [lookup],
      prepareStep: ({ step, messages, steps }) => {
        seen.push({ messages, steps: steps.length });
        if (step === 0) return { toolChoice: "required" };
        // The second step: a trimmed history (the system prompt and the tool's result only), another model.
        return { messages: [messages[0]!, { role: "user", content: String(messages[3]!.content) }], model: other };
      },
    });
    expect(model.calls[0]!.toolChoice).toBe("required");
    expect(model.calls).toHaveLength(1);
    expect(other.calls[0]!.messages).toEqual([question()[0], { role: "user", content: "INC-001: auth-api outage" }]);
    expect(run.messages).toHaveLength(5);
    expect(run.text).toBe("INC-001 is an auth-api outage.");
    expect(seen.map((each) => each.steps)).toEqual([0, 1]);
    expect(seen[1]!.messages).toHaveLength(4);
  });

  it("should refuse a prepareStep answer that names no tool of the run, with a TypeError", async () => {
    const model = new ScriptedChatModel([textStep("x")]);
    await expect(
      runIn(mode, { model, messages: question(), tools: [lookup], prepareStep: () => ({ activeTools: ["lookups"] }) }),
    ).rejects.toThrow(/activeTools names "lookups", which is no tool of this run/);
    expect(model.calls).toHaveLength(0);
  });

  it("should report each step and tool as events, with execution ids, durations and results", async () => {
    const failing = defineTool({
      name: "deploy",
      inputSchema: z.object({ service: z.string() }),
      execute: () => {
        throw new Error("registry unreachable");
      },
    });
    const model = new ScriptedChatModel(
      [
        {
          type: "tool-calls",
          calls: [
            { name: "lookup_incident", args: { incident_id: "INC-001" }, id: "c1" },
            { name: "deploy", args: { service: "auth-api" }, id: "c2" },
          ],
        },
        textStep("Deploy failed."),
      ],
      { allowParallelToolCalls: true },
    );
    const events: RunEvent[] = [];
    const { run } = await runIn(mode, {
      model,
      messages: question(),
      tools: [lookup, failing],
      runId: "run-test",
      onEvent: (event) => {
        events.push(event);
        throw new Error("a listener that throws is ignored");
      },
    });
    expect(run.text).toBe("Deploy failed.");
    expect(events.map((event) => event.type)).toEqual([
      "step-start",
      "tool-requested",
      "tool-requested",
      "tool-finished",
      "tool-finished",
      "step-finish",
      "step-start",
      "step-finish",
    ]);
    const finished = events.filter((event) => event.type === "tool-finished");
    expect(finished).toEqual(
      expect.arrayContaining([
        expect.objectContaining({ executionId: "run-test:step-0:call-0", result: "INC-001: auth-api outage", step: 0 }),
        expect.objectContaining({ executionId: "run-test:step-0:call-1", error: expect.any(Error), step: 0 }),
      ]),
    );
    for (const event of finished) expect(event.durationMs).toBeGreaterThanOrEqual(0);
    expect(events.at(-1)).toEqual({ type: "step-finish", step: 1, runStep: run.steps[1] });
  });

  it("should report a call that waits as tool-approval-requested", async () => {
    const guarded = defineTool({
      name: "deploy",
      inputSchema: z.object({ service: z.string() }),
      needsApproval: (args) => args.service === "auth-api",
      execute: () => "deployed",
    });
    const model = new ScriptedChatModel([toolCallStep("deploy", { service: "auth-api" }, { id: "c1" })]);
    const events: RunEvent[] = [];
    const { run } = await runIn(mode, {
      model,
      messages: question(),
      tools: [guarded],
      onEvent: (event) => events.push(event),
    });
    expect(run.status).toBe("awaiting-approval");
    expect(events.map((event) => event.type)).toEqual([
      "step-start",
      "tool-requested",
      "tool-approval-requested",
      "step-finish",
    ]);
  });
});
