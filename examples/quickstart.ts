/**
 * Quickstart: a small incident agent. It looks an incident up with one tool, then answers with
 * another, forcing a tool call at every turn — on the scripted model by default, or on a real
 * provider with KEELSON_MODEL=ollama:llama3.1 (or openai:gpt-4o, bedrock:…). Same agent code.
 */
import { z } from "zod";
import { createChatModel, defineTool, type ChatModel, type ChatModelName, type Message } from "keelson";
import { ScriptedChatModel, toolCallStep } from "keelson/testing";

const lookupIncident = defineTool({
  name: "lookup_incident",
  description: "Look up an incident by its id.",
  inputSchema: z.object({ incident_id: z.string().describe("An id such as INC-001") }),
});

const answer = defineTool({
  name: "answer",
  description: "Give the final answer to the user.",
  inputSchema: z.object({ summary: z.string() }),
});

const incidents: Record<string, string> = {
  "INC-001": "auth-api outage since 09:12 UTC; login fails with 503; owner: identity team",
};

async function chooseModel(): Promise<ChatModel> {
  const name = process.env.KEELSON_MODEL;
  if (!name) {
    // No provider configured: play a script, the way an agent's unit tests do.
    return new ScriptedChatModel([
      toolCallStep("lookup_incident", { incident_id: "INC-001" }),
      toolCallStep("answer", {
        summary: "INC-001 is an auth-api outage (logins fail with 503); the identity team owns it.",
      }),
    ]);
  }
  // A name read at run time: createChatModel checks the provider when it builds the model.
  return createChatModel(name as ChatModelName);
}

export async function runAgent(model: ChatModel, question: string): Promise<string> {
  const messages: Message[] = [
    { role: "system", content: "You are an on-call assistant. Look incidents up before answering." },
    { role: "user", content: question },
  ];
  console.log(`user: ${question}`);
  for (let turn = 0; turn < 5; turn++) {
    const output = await model.create({ messages, tools: [lookupIncident, answer], toolChoice: "required" });
    messages.push(output.message);
    for (const call of output.toolCalls) {
      console.log(
        `assistant → ${call.name}(${JSON.stringify(call.args)})   [tool_choice rung: ${output.meta.toolChoice}]`,
      );
      if (call.name === "answer") {
        const summary = String(call.args.summary);
        console.log(`assistant: ${summary}`);
        return summary;
      }
      const result = incidents[String(call.args.incident_id)] ?? "no such incident";
      console.log(`tool ${call.name}: ${result}`);
      messages.push({ role: "tool", toolCallId: call.id, toolName: call.name, content: result });
    }
  }
  throw new Error("The agent did not answer within 5 turns.");
}

const model = await chooseModel();
console.log(`model: ${model.providerId} ${model.modelId}`);
await runAgent(model, "What is going on with INC-001?");
