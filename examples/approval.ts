/**
 * Approval that can wait: a tool that restarts a service needs a person's approval. The run ends
 * with `status: "awaiting-approval"`; its messages are saved as JSON (as an app would store them
 * while it waits for the on-call engineer); the approval arrives later and the run resumes from
 * the saved messages. The restart runs once, with an `executionId` a real tool would use as an
 * idempotency key. On the scripted model: no network.
 *
 *   npx tsx examples/approval.ts
 */
import { z } from "zod";
import { defineTool, runTools, type Message } from "keelson";
import { ScriptedChatModel, textStep, toolCallStep } from "keelson/testing";

const restarts: string[] = [];
const restartService = defineTool({
  name: "restart_service",
  description: "Restart a production service.",
  inputSchema: z.object({ service: z.string() }),
  // Production restarts wait for a person; a staging one would not.
  needsApproval: ({ service }) => !service.startsWith("staging-"),
  execute: ({ service }, { executionId }) => {
    restarts.push(executionId);
    return `${service} restarted`;
  },
});

const model = new ScriptedChatModel([
  toolCallStep("restart_service", { service: "auth-api" }, { id: "call_restart" }),
  textStep("auth-api was restarted; logins recover within a minute."),
]);
const tools = [restartService];

// 1. The run stops before the restart and says what waits.
const waiting = await runTools({
  model,
  tools,
  messages: [{ role: "user", content: "auth-api is failing logins: restart it." }],
});
console.log(`status: ${waiting.status}`);
for (const { toolCall } of waiting.pendingApprovals) {
  console.log(`waiting for approval: ${toolCall.name}(${JSON.stringify(toolCall.args)}) [${toolCall.id}]`);
}
const saved = JSON.stringify({ runId: waiting.runId, messages: waiting.messages });

// 2. Later (another request, another process): the engineer approves, the run resumes.
const state = JSON.parse(saved) as { runId: string; messages: Message[] };
const done = await runTools({
  model,
  tools,
  messages: state.messages,
  runId: state.runId,
  approvals: { call_restart: true },
});
console.log(`status: ${done.status}`);
console.log(`answer: ${done.text}`);
console.log(`restarts: ${restarts.join(", ")}`);

if (
  waiting.status !== "awaiting-approval" ||
  done.status !== "done" ||
  restarts.length !== 1 ||
  restarts[0] !== `${waiting.runId}:step-0:call-0`
) {
  console.error("expected one restart, after the approval");
  process.exit(1);
}
