/**
 * The triage agent of `four-providers.ts`: for each alert, the model must call exactly one of two
 * tools (toolChoice "required"), and the agent runs it. Nothing in it names a provider.
 */
import { z } from "zod";
import { defineTool, type ChatModel } from "keelson";

export const pageOncall = defineTool({
  name: "page_oncall",
  description: "Page the on-call engineer of a team, for an outage that hurts users now.",
  inputSchema: z.object({
    team: z.string().describe("The owning team, e.g. identity"),
    severity: z.enum(["sev1", "sev2"]),
  }),
});

export const openTicket = defineTool({
  name: "open_ticket",
  description: "Open a ticket for a team, for a problem that can wait for working hours.",
  inputSchema: z.object({ team: z.string(), title: z.string() }),
});

export const alerts = [
  "auth-api: every login fails with 503 since 09:12 UTC (owner: identity).",
  "billing-worker: the nightly invoice export took 3 h instead of 1 h (owner: billing).",
] as const;

export interface Triage {
  alert: string;
  tool: string;
  args: Record<string, unknown>;
  rung: string;
  repairs: string[];
}

/** Triages one alert: one forced tool call, then the tool runs (here: it prints). */
export async function triage(model: ChatModel, alert: string): Promise<Triage> {
  const output = await model.create({
    messages: [
      {
        role: "system",
        content: "You triage production alerts. Page on-call for user-facing outages; open a ticket otherwise.",
      },
      { role: "user", content: alert },
    ],
    tools: [pageOncall, openTicket],
    toolChoice: "required",
  });
  const call = output.toolCalls[0];
  if (!call) throw new Error(`No tool call came back for: ${alert}`);
  return {
    alert,
    tool: call.name,
    args: call.args,
    rung: output.meta.toolChoice,
    repairs: output.meta.repairs.map((repair) => repair.kind),
  };
}
