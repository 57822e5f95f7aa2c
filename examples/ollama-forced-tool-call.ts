/**
 * A forced tool call on a local Ollama model. Ollama ignores `tool_choice`, so OllamaChatModel has
 * an empty support set: keelson compiles the tool into one JSON schema (the tool union) and sends
 * it as Ollama's `format`, which the server turns into a grammar — the reply cannot be anything but
 * the call. keelson reads the reply back into an ordinary tool call with a `call_…` id.
 *
 * This replays examples/cassettes/ollama-forced-tool-call.json, recorded by record-cassettes.ts
 * through the real OllamaChatModel and the `ollama` SDK against a LOOPBACK FAKE of Ollama (not a
 * live server); the request body the SDK put on the wire is kept beside it (.wire.json).
 * Against your own Ollama, replace the ReplayChatModel line with `new OllamaChatModel("llama3.1")`.
 *
 *   npx tsx examples/ollama-forced-tool-call.ts
 */
import { readFileSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { ReplayChatModel } from "keelson/testing";
import { lookupIncident } from "./support/incident-agent.js";

const cassette = new URL("./cassettes/ollama-forced-tool-call.json", import.meta.url);
const wire = JSON.parse(
  readFileSync(new URL("./cassettes/ollama-forced-tool-call.wire.json", import.meta.url), "utf8"),
) as {
  path: string;
  body: Record<string, unknown>;
}[];

const model = new ReplayChatModel(fileURLToPath(cassette)); // live: new OllamaChatModel("llama3.1")
console.log(
  `model: ${model.providerId} ${model.modelId}, toolChoiceSupport: [${[...model.toolChoiceSupport].join(", ")}]`,
);

const output = await model.create({
  messages: [{ role: "user", content: "Look up INC-001." }],
  tools: [lookupIncident],
  toolChoice: lookupIncident, // force this one tool
});

const request = wire[0]!;
console.log(`\nPOST ${request.path} — what the ollama SDK sent:`);
console.log(
  `  tools: ${JSON.stringify(request.body.tools)}   tool_choice: ${JSON.stringify(request.body.tool_choice)}`,
);
console.log(`  format: ${JSON.stringify(request.body.format, null, 2).replace(/\n/g, "\n  ")}`);
console.log(`\nOllama replied (content): ${(output.raw as { message: { content: string } }).message.content}`);
const [call] = output.toolCalls;
console.log(
  `keelson returned: ${call?.name}(${JSON.stringify(call?.args)}) with id ${call?.id}   [rung: ${output.meta.toolChoice}, finish: ${output.finishReason}]`,
);

const problems: string[] = [];
if (request.body.tools !== undefined || request.body.tool_choice !== undefined)
  problems.push("tools or tool_choice went on the wire");
const format = request.body.format as { properties?: { name?: { enum?: string[] } } } | undefined;
if (format?.properties?.name?.enum?.[0] !== "lookup_incident")
  problems.push("the format schema does not name lookup_incident");
if (output.meta.toolChoice !== "response-format")
  problems.push(`rung ${output.meta.toolChoice}, expected response-format`);
if (call?.name !== "lookup_incident" || call.args.incident_id !== "INC-001")
  problems.push("the tool call did not come back");
if (!/^call_[a-z0-9]{8}$/.test(call?.id ?? "")) problems.push(`id ${call?.id} is not call_ + 8 characters`);
if (output.finishReason !== "tool-calls") problems.push(`finish reason ${output.finishReason}`);
if (problems.length) {
  console.error(`FAIL: ${problems.join("; ")}`);
  process.exit(1);
}
console.log("\nok: the forced call travelled as Ollama's format schema and came back as a tool call.");
