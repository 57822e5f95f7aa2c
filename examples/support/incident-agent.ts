/**
 * The agent that `agent.test.ts` tests: it may look an incident up (toolChoice "auto"), then
 * answers in text. A loop of model calls and tool runs, with nothing provider-specific in it.
 */
import { z } from "zod";
import { defineTool, type ChatModel, type ChatModelOutput, type Message } from "keelson";

export const lookupIncident = defineTool({
  name: "lookup_incident",
  description: "Look up an incident by its id.",
  inputSchema: z.object({ incident_id: z.string().describe("An id such as INC-001") }),
});

const incidents: Record<string, string> = {
  "INC-001": "auth-api outage since 09:12 UTC; login fails with 503; owner: identity team",
};

export interface AgentRun {
  answer: string;
  /** Every model output, in order, for the test to inspect. */
  outputs: ChatModelOutput[];
}

export async function answerQuestion(model: ChatModel, question: string, maxTurns = 4): Promise<AgentRun> {
  const messages: Message[] = [
    { role: "system", content: "You are an on-call assistant. Look incidents up before answering." },
    { role: "user", content: question },
  ];
  const outputs: ChatModelOutput[] = [];
  for (let turn = 0; turn < maxTurns; turn++) {
    const output = await model.create({ messages, tools: [lookupIncident] });
    outputs.push(output);
    messages.push(output.message);
    if (output.toolCalls.length === 0) return { answer: output.text, outputs };
    for (const call of output.toolCalls) {
      const result = incidents[String(call.args.incident_id)] ?? "no such incident";
      messages.push({ role: "tool", toolCallId: call.id, toolName: call.name, content: result });
    }
  }
  throw new Error(`The agent did not answer within ${maxTurns} turns.`);
}
