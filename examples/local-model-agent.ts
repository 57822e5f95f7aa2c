/**
 * An agent on a small local model that writes its tool call as text. Models such as qwen3 or
 * qwen2.5-coder on Ollama often put the call in the reply's text (`{"name": …, "arguments": …}`,
 * `<tool_call>…</tool_call>`) with no `tool_calls` (ollama#11185, #11662, #12174). Under
 * toolChoice "auto" — the default, which lets the model answer in text — keelson reads a reply that
 * is nothing but calls to the agent's tools with valid arguments as those calls (listed as the
 * `text-tool-call` repair); any other text stays the answer. Streamed, the markup is held back and
 * replaced by the tool-call part: it never reaches the user as text.
 *
 *   npx tsx examples/local-model-agent.ts                                   # the scripted model
 *   KEELSON_MODEL=qwen3:8b npx tsx examples/local-model-agent.ts            # a local Ollama
 *   OLLAMA_HOST=http://gpu-box:11434 npx tsx examples/local-model-agent.ts  # another Ollama server
 */
import { z } from "zod";
import { defineTool, streamTools, type ChatModel } from "keelson";
import { OllamaChatModel } from "keelson/ollama";
import { ScriptedChatModel, rawStep, textStep } from "keelson/testing";

const incidents: Record<string, string> = {
  "INC-001": "auth-api outage since 09:12 UTC; login fails with 503; owner: identity team",
};

const lookupIncident = defineTool({
  name: "lookup_incident",
  description: "Look up an incident by its id.",
  inputSchema: z.object({ incident_id: z.string().describe("An id such as INC-001") }),
  execute: ({ incident_id }) => incidents[incident_id] ?? "no such incident",
});

function chooseModel(): { model: ChatModel; live: boolean } {
  const name = process.env.KEELSON_MODEL;
  if (name || process.env.OLLAMA_HOST) {
    // OllamaChatModel reads OLLAMA_HOST itself; KEELSON_MODEL may be written "ollama:qwen3:8b" too.
    return { model: new OllamaChatModel(name?.replace(/^ollama:/, "") || "qwen3:8b"), live: true };
  }
  // No server: the replies a small model really sends — the call as JSON text (ollama#11185's shape),
  // streamed in pieces as Ollama streams it, then the answer.
  const textCall = '{"name": "lookup_incident", "arguments": {"incident_id": "INC-001"}}';
  const model = new ScriptedChatModel([
    rawStep(textCall, { chunks: ['{"name": "lookup_', 'incident", "arguments": ', '{"incident_id": "INC-001"}}'] }),
    textStep("INC-001 is an auth-api outage (logins fail with 503); the identity team owns it."),
  ]);
  return { model, live: false };
}

const { model, live } = chooseModel();
console.log(`model: ${model.providerId} ${model.modelId}`);
const stream = streamTools({
  model,
  messages: [
    { role: "system", content: "You are an on-call assistant. Look incidents up before answering." },
    { role: "user", content: "What is going on with INC-001?" },
  ],
  tools: [lookupIncident],
  maxSteps: 4,
});

let shown = "";
for await (const part of stream) {
  if (part.type === "text-delta") {
    shown += part.text;
    process.stdout.write(part.text);
  } else if (part.type === "tool-call") {
    console.log(`→ ${part.toolCall.name}(${JSON.stringify(part.toolCall.args)})`);
  } else if (part.type === "tool-result") {
    console.log(`← ${String(part.toolResult.message.content)}`);
  } else if (part.type === "step-finish") {
    const recovered = part.step.output.meta.repairs.some((repair) => repair.kind === "text-tool-call");
    if (recovered) console.log(`  (step ${part.step.stepIndex}: the call was written as text, read as a tool call)`);
  }
}
console.log();

const run = await stream.final();
const called = run.steps.some((step) => step.toolResults.length > 0);
const recovered = run.steps.some((step) => step.output.meta.repairs.some((repair) => repair.kind === "text-tool-call"));
if (!live) {
  // The scripted run must show it: the tool ran, the call was read from text, and its markup never streamed.
  if (!called || !recovered) throw new Error("The call written as text was not run as a tool call.");
  if (shown.includes('"name"')) throw new Error(`The call's markup reached the user as text: ${JSON.stringify(shown)}`);
}
if (run.text.trim() === "") throw new Error("The agent ended without an answer.");
console.log(`answer: ${run.text}`);
console.log(`tool called: ${called}; a call written as text recovered: ${recovered}`);
