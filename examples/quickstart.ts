/**
 * Quickstart: a small incident agent on `runTools`. It looks an incident up with one tool, then
 * answers with another, forcing a tool call at every turn — on the scripted model by default, or
 * on a real provider with KEELSON_MODEL=ollama:llama3.1 (or openai:gpt-4o, bedrock:…). Same agent code.
 */
import { z } from "zod";
import { createChatModel, defineTool, runTools, type ChatModel, type ChatModelName, type RunStep } from "keelson";
import { ScriptedChatModel, toolCallStep } from "keelson/testing";

const incidents: Record<string, string> = {
  "INC-001": "auth-api outage since 09:12 UTC; login fails with 503; owner: identity team",
};

const lookupIncident = defineTool({
  name: "lookup_incident",
  description: "Look up an incident by its id.",
  inputSchema: z.object({ incident_id: z.string().describe("An id such as INC-001") }),
  // What it returns goes back to the model, "no such incident" included.
  execute: ({ incident_id }) => incidents[String(incident_id)] ?? "no such incident",
});

// No execute: a call to it ends the run, and the run hands it back as `run.toolCalls`.
const answer = defineTool({
  name: "answer",
  description: "Give the final answer to the user.",
  inputSchema: z.object({ summary: z.string() }),
});

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

/** Prints a step as it ends: each call the model made, then what its tool returned. */
function printStep(step: RunStep): void {
  for (const call of step.output.toolCalls) {
    console.log(
      `assistant → ${call.name}(${JSON.stringify(call.args)})   [tool_choice rung: ${step.output.meta.toolChoice}]`,
    );
    const result = step.toolResults.find((each) => each.toolCall.id === call.id);
    if (result) console.log(`tool ${call.name}: ${result.message.content}`);
  }
}

export async function runAgent(model: ChatModel, question: string): Promise<string> {
  console.log(`user: ${question}`);
  const run = await runTools({
    model,
    messages: [
      { role: "system", content: "You are an on-call assistant. Look incidents up before answering." },
      { role: "user", content: question },
    ],
    tools: [lookupIncident, answer],
    toolChoice: "required",
    maxSteps: 5,
    onStep: printStep,
  });
  const final = run.toolCalls.find((call) => call.name === "answer");
  if (!final) throw new Error(`The agent ended without calling 'answer' (it said: ${JSON.stringify(run.text)}).`);
  const summary = String(final.args.summary);
  console.log(`assistant: ${summary}`);
  return summary;
}

const model = await chooseModel();
console.log(`model: ${model.providerId} ${model.modelId}`);
await runAgent(model, "What is going on with INC-001?");
