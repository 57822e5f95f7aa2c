// Approval that waits: a run ends awaiting a person, its messages (plain JSON) are the whole state,
// and a resumed or repeated run never executes a call twice.
import { describe, expect, it, vi } from "vitest";
import { z } from "zod";
import type { Message, RunEvent, ToolExecuteContext } from "../../src/index.js";
import { defineTool } from "../../src/index.js";
import { ScriptedChatModel, textStep, toolCallsStep } from "../../src/testing/index.js";
import { answerStep, callStep, runProfiles } from "../support/run-tools-profiles.js";
import { runIn, runModes } from "../support/run-tools-modes.js";

const question = (): Message[] => [{ role: "user", content: "Restart the auth-api service." }];
const answer = defineTool({ name: "answer", inputSchema: z.object({ summary: z.string() }) });

function restartTool(needsApproval: boolean | ((args: { service: string }) => boolean) = true) {
  const execute = vi.fn(({ service }: { service: string }, _context: ToolExecuteContext) => `${service} restarted`);
  const tool = defineTool({
    name: "restart_service",
    inputSchema: z.object({ service: z.string() }),
    needsApproval,
    execute,
  });
  return { tool, execute };
}

describe.each(runModes)("%s", (mode) => {
  describe.each(runProfiles)("on the $rung rung", (profile) => {
    const toolChoice = profile.rung === "native" ? undefined : ("required" as const);

    it("should wait for approval, resume from a JSON round trip of run.messages, and execute the call once", async () => {
      const { tool, execute } = restartTool();
      const model = new ScriptedChatModel(
        [callStep(profile, "restart_service", { service: "auth-api" }, "call_r1"), answerStep(profile, "Restarted.")],
        profile.options,
      );
      const tools = [tool, answer];
      const { run: waiting } = await runIn(mode, { model, messages: question(), tools, toolChoice });

      expect(waiting.status).toBe("awaiting-approval");
      expect(execute).not.toHaveBeenCalled();
      const [pending] = waiting.pendingApprovals;
      expect(pending!.toolCall).toMatchObject({ name: "restart_service", args: { service: "auth-api" } });
      expect(waiting.messages.at(-1)).toMatchObject({ role: "assistant" });
      expect(model.calls).toHaveLength(1);

      const stored = JSON.parse(JSON.stringify(waiting.messages)) as Message[];
      const approvals = { [pending!.toolCall.id]: true };
      const { run } = await runIn(mode, {
        model,
        messages: stored,
        tools,
        toolChoice,
        approvals,
        runId: waiting.runId,
      });

      expect(run.status).toBe("done");
      expect(execute).toHaveBeenCalledTimes(1);
      expect(execute.mock.calls[0]![1]!.executionId).toBe(`${waiting.runId}:step-0:call-0`);
      expect(run.messages).toContainEqual({
        role: "tool",
        toolCallId: pending!.toolCall.id,
        toolName: "restart_service",
        content: "auth-api restarted",
      });
      // The model was asked again with the result, and the call was never re-asked.
      expect(model.calls).toHaveLength(2);
      expect(model.calls[1]!.messages).toContainEqual(run.messages[2]);

      // Repeating the finished run (its messages again) executes nothing: every call is answered.
      const again = new ScriptedChatModel([answerStep(profile, "Still restarted.")], profile.options);
      await runIn(mode, { model: again, messages: run.messages, tools, toolChoice });
      expect(execute).toHaveBeenCalledTimes(1);
    });
  });

  it("should hold the step's other calls with the one that waits, and run them on resume", async () => {
    const { tool, execute } = restartTool(({ service }) => service === "auth-api");
    const model = new ScriptedChatModel(
      [
        toolCallsStep([
          { name: "restart_service", args: { service: "cache" }, id: "call_a" },
          { name: "restart_service", args: { service: "auth-api" }, id: "call_b" },
        ]),
        textStep("Both restarted."),
      ],
      { allowParallelToolCalls: true },
    );
    const { run: waiting } = await runIn(mode, { model, messages: question(), tools: [tool] });
    expect(waiting.status).toBe("awaiting-approval");
    expect(waiting.pendingApprovals.map((each) => each.toolCall.id)).toEqual(["call_b"]);
    // The call that needed no approval is held too: nothing of the step ran.
    expect(execute).not.toHaveBeenCalled();
    expect(waiting.messages.filter((message) => message.role === "tool")).toEqual([]);

    const { run } = await runIn(mode, {
      model,
      messages: waiting.messages,
      tools: [tool],
      approvals: { call_b: true },
    });
    expect(run.status).toBe("done");
    expect(execute.mock.calls.map(([args]) => args.service).sort()).toEqual(["auth-api", "cache"]);
    expect(run.text).toBe("Both restarted.");
  });

  it.each([
    [false, "a person refused this call."],
    ["Not during the incident review.", "Not during the incident review."],
  ])("should send a refusal (%s) back to the model, the tool not run", async (decision, reason) => {
    const { tool, execute } = restartTool();
    const model = new ScriptedChatModel([
      callStep(runProfiles[0], "restart_service", { service: "auth-api" }, "call_r1"),
      textStep("I did not restart it."),
    ]);
    const { run: waiting } = await runIn(mode, { model, messages: question(), tools: [tool] });
    const events: RunEvent[] = [];
    const { run } = await runIn(mode, {
      model,
      messages: waiting.messages,
      tools: [tool],
      approvals: { call_r1: decision },
      onEvent: (event) => events.push(event),
    });
    expect(execute).not.toHaveBeenCalled();
    expect(run.messages[2]).toEqual({
      role: "tool",
      toolCallId: "call_r1",
      toolName: "restart_service",
      content: `Not authorized: ${reason} The tool 'restart_service' was not run.`,
    });
    expect(events).toContainEqual(expect.objectContaining({ type: "tool-refused", reason }));
  });

  it('should hold a call authorize answers "ask" for, and ask again for one left undecided', async () => {
    const execute = vi.fn(() => "paged");
    const page = defineTool({ name: "page_oncall", inputSchema: z.object({ team: z.string() }), execute });
    const authorize = vi.fn(() => "ask" as const);
    const model = new ScriptedChatModel(
      [
        toolCallsStep([
          { name: "page_oncall", args: { team: "auth" }, id: "call_1" },
          { name: "page_oncall", args: { team: "db" }, id: "call_2" },
        ]),
        textStep("Paged auth."),
      ],
      { allowParallelToolCalls: true },
    );
    const { run: waiting } = await runIn(mode, { model, messages: question(), tools: [page], authorize });
    expect(waiting.pendingApprovals.map((each) => each.toolCall.id)).toEqual(["call_1", "call_2"]);

    // Deciding on one: the other asks again, before any model call; nothing ran.
    const { run: still } = await runIn(mode, {
      model,
      messages: waiting.messages,
      tools: [page],
      authorize,
      approvals: { call_1: true },
    });
    expect(still.status).toBe("awaiting-approval");
    expect(still.pendingApprovals.map((each) => each.toolCall.id)).toEqual(["call_2"]);
    expect(execute).not.toHaveBeenCalled();
    expect(model.calls).toHaveLength(1);

    const { run } = await runIn(mode, {
      model,
      messages: still.messages,
      tools: [page],
      authorize,
      approvals: { call_1: true, call_2: "Only auth." },
    });
    expect(execute).toHaveBeenCalledTimes(1);
    expect(run.text).toBe("Paged auth.");
  });

  it("should refuse an approval that names no waiting call, with a TypeError, before any call", async () => {
    const { tool, execute } = restartTool();
    const model = new ScriptedChatModel([
      callStep(runProfiles[0], "restart_service", { service: "auth-api" }, "call_r1"),
      textStep("Done."),
    ]);
    const { run: waiting } = await runIn(mode, { model, messages: question(), tools: [tool] });
    const { run: done } = await runIn(mode, {
      model,
      messages: waiting.messages,
      tools: [tool],
      approvals: { call_r1: true },
    });
    // The call is answered now: approving it again names no waiting call.
    await expect(
      runIn(mode, { model, messages: done.messages, tools: [tool], approvals: { call_r1: true } }),
    ).rejects.toThrow(/call_r1.*not waiting for approval/);
    await expect(
      runIn(mode, { model, messages: waiting.messages, tools: [tool], approvals: { call_zz: true } }),
    ).rejects.toThrow(TypeError);
    expect(execute).toHaveBeenCalledTimes(1);
    expect(model.calls).toHaveLength(2);
  });

  it("should give the same executionId to a call resumed twice with the same runId (an idempotency key)", async () => {
    const { tool, execute } = restartTool();
    const model = new ScriptedChatModel([
      callStep(runProfiles[0], "restart_service", { service: "auth-api" }, "call_r1"),
      textStep("Done."),
      textStep("Done again."),
    ]);
    const { run: waiting } = await runIn(mode, { model, messages: question(), tools: [tool] });
    const resume = {
      model,
      messages: waiting.messages,
      tools: [tool],
      approvals: { call_r1: true },
      runId: waiting.runId,
    };
    await runIn(mode, resume);
    await runIn(mode, resume);
    const ids = execute.mock.calls.map(([, context]) => context!.executionId);
    expect(ids).toEqual([`${waiting.runId}:step-0:call-0`, `${waiting.runId}:step-0:call-0`]);
  });
});
