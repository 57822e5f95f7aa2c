// strategy: "plan-execute": a plan of calls first, each run in order, then the answer.
import { describe, expect, it, vi } from "vitest";
import { z } from "zod";
import type { Message } from "../../src/index.js";
import { defineTool } from "../../src/index.js";
import { ScriptedChatModel, rawStep, textStep } from "../../src/testing/index.js";
import { runProfiles } from "../support/run-tools-profiles.js";
import { runErrorIn, runIn, runModes } from "../support/run-tools-modes.js";

const question = (): Message[] => [{ role: "user", content: "Why is auth-api failing?" }];

function tools(fail = false) {
  const lookup = vi.fn(({ incident_id }: { incident_id: string }) => `${incident_id}: auth-api outage`);
  const logs = vi.fn(({ service }: { service: string }) => {
    if (fail) throw new Error("log store unreachable");
    return `${service}: TLS handshake failures since 09:12`;
  });
  return {
    lookup,
    logs,
    list: [
      defineTool({ name: "lookup_incident", inputSchema: z.object({ incident_id: z.string() }), execute: lookup }),
      defineTool({ name: "read_logs", inputSchema: z.object({ service: z.string() }), execute: logs }),
    ],
  };
}

const plan = {
  reasoning: "Find the incident, then read the service's logs.",
  steps: [
    { description: "Look up the incident", toolCall: { name: "lookup_incident", args: { incident_id: "INC-001" } } },
    { description: "Read auth-api's logs", toolCall: { name: "read_logs", args: { service: "auth-api" } } },
  ],
};

describe.each(runModes)("%s", (mode) => {
  describe.each(runProfiles)("on the $rung rung", (profile) => {
    it("should ask for a plan, run its calls in order, then answer from their results", async () => {
      const { list, lookup, logs } = tools();
      const model = new ScriptedChatModel(
        [rawStep(JSON.stringify(plan)), textStep("A bad TLS bundle: handshakes fail since 09:12.")],
        profile.options,
      );
      const { run } = await runIn(mode, { model, messages: question(), tools: list, strategy: "plan-execute" });

      expect(run.plan).toEqual(plan);
      expect(lookup).toHaveBeenCalledTimes(1);
      expect(logs).toHaveBeenCalledTimes(1);
      expect(run.text).toBe("A bad TLS bundle: handshakes fail since 09:12.");
      expect(run.messages.map((message) => message.role)).toEqual([
        "user",
        "assistant",
        "tool",
        "assistant",
        "tool",
        "assistant",
      ]);
      expect(run.messages[4]).toMatchObject({ content: "auth-api: TLS handshake failures since 09:12" });
      // The answer was asked with every result, and the plan's note was for the first call only.
      expect(model.calls[1]!.messages).toEqual(run.messages.slice(0, 5));
      expect(run.steps.map((step) => step.toolResults.length)).toEqual([2, 0]);
      // The plan was asked as structured output: the provider's JSON-schema format, or (without one) an instruction.
      if (profile.rung === "prompt") expect(model.calls[0]!.responseFormat).toBeUndefined();
      else expect(model.calls[0]!.responseFormat).toMatchObject({ type: "json-schema" });
    });
  });

  it("should ask for a new plan when a step fails, with replan: true", async () => {
    const { list, logs } = tools(true);
    const second = {
      reasoning: "The logs are unreachable: look the incident up again.",
      steps: [{ description: "Look up", toolCall: { name: "lookup_incident", args: { incident_id: "INC-001" } } }],
    };
    const model = new ScriptedChatModel([
      rawStep(JSON.stringify(plan)),
      rawStep(JSON.stringify(second)),
      textStep("An auth-api outage; its logs could not be read."),
    ]);
    const { run } = await runIn(mode, {
      model,
      messages: question(),
      tools: list,
      strategy: "plan-execute",
      replan: true,
    });
    expect(logs).toHaveBeenCalledTimes(1);
    expect(run.plan).toEqual(second);
    expect(run.steps).toHaveLength(3);
    expect(model.calls[1]!.messages).toContainEqual(
      expect.objectContaining({ role: "tool", content: expect.stringMatching(/log store unreachable/) }),
    );
  });

  it("should hold a planned call that needs approval, and resume it", async () => {
    const restart = vi.fn(() => "restarted");
    const guarded = defineTool({
      name: "restart_service",
      inputSchema: z.object({ service: z.string() }),
      needsApproval: true,
      execute: restart,
    });
    const planned = {
      reasoning: "Restart it.",
      steps: [
        { description: "Restart auth-api", toolCall: { name: "restart_service", args: { service: "auth-api" } } },
      ],
    };
    const model = new ScriptedChatModel([rawStep(JSON.stringify(planned)), textStep("Restarted.")]);
    const { run: waiting } = await runIn(mode, {
      model,
      messages: question(),
      tools: [guarded],
      strategy: "plan-execute",
    });
    expect(waiting.status).toBe("awaiting-approval");
    expect(waiting.plan).toEqual(planned);
    expect(restart).not.toHaveBeenCalled();
    const id = waiting.pendingApprovals[0]!.toolCall.id;
    const { run } = await runIn(mode, {
      model,
      messages: waiting.messages,
      tools: [guarded],
      approvals: { [id]: true },
    });
    expect(restart).toHaveBeenCalledTimes(1);
    expect(run.text).toBe("Restarted.");
  });

  it("should end with max-steps when the plans use up maxSteps", async () => {
    const { list } = tools(true);
    const model = new ScriptedChatModel([rawStep(JSON.stringify(plan)), rawStep(JSON.stringify(plan))]);
    const error = await runErrorIn(mode, {
      model,
      messages: question(),
      tools: list,
      strategy: "plan-execute",
      replan: true,
      maxSteps: 2,
    });
    expect(error.reason).toBe("max-steps");
  });
});
