/**
 * The same agent on four providers, by changing one line.
 *
 * The triage agent (support/triage-agent.ts) forces a tool call for each alert. Below, the model it
 * runs on is built in ONE line per provider. In CI each line plays back a cassette that the real
 * adapter recorded (examples/record-cassettes.ts) — against a LOOPBACK FAKE of the provider, not a
 * live one — so this runs offline and deterministically. With KEELSON_LIVE=1 the very same names go
 * to `createChatModel` and reach the real providers (keys and endpoints from the environment).
 *
 * What it shows: each provider ends the forced call on a different rung of the tool_choice ladder
 * (native on OpenAI and Azure; Ollama's `format` grammar; a prompt instruction for a Llama model on
 * Bedrock, whose ```json fence keelson strips), and the agent gets the same tool calls every time.
 *
 *   npx tsx examples/four-providers.ts            # all four
 *   npx tsx examples/four-providers.ts ollama     # one
 */
import { fileURLToPath } from "node:url";
import { createChatModel, type ChatModel } from "keelson";
import { ReplayChatModel } from "keelson/testing";
import { alerts, triage, type Triage } from "./support/triage-agent.js";

const cassette = (name: string) => fileURLToPath(new URL(`./cassettes/triage.${name}.json`, import.meta.url));
const live = process.env.KEELSON_LIVE === "1";

// The one line that changes from provider to provider:
const models: Record<string, () => ChatModel> = {
  openai: () => (live ? createChatModel("openai:gpt-4o-mini") : new ReplayChatModel(cassette("openai"))),
  "azure-openai": () =>
    live ? createChatModel("azure-openai:gpt-4o-mini-prod") : new ReplayChatModel(cassette("azure-openai")),
  ollama: () => (live ? createChatModel("ollama:llama3.1") : new ReplayChatModel(cassette("ollama"))),
  bedrock: () =>
    live ? createChatModel("bedrock:us.meta.llama3-3-70b-instruct-v1:0") : new ReplayChatModel(cassette("bedrock")),
};

const wanted = process.argv[2] ? [process.argv[2]] : Object.keys(models);
const results: Record<string, Triage[]> = {};
for (const provider of wanted) {
  const build = models[provider];
  if (!build) throw new Error(`Unknown provider '${provider}': use one of ${Object.keys(models).join(", ")}.`);
  const model = build();
  console.log(
    `\n== ${provider} (${model.providerId} ${model.modelId}, toolChoiceSupport: [${[...model.toolChoiceSupport].join(", ")}])`,
  );
  results[provider] = [];
  for (const alert of alerts) {
    const result = await triage(model, alert);
    results[provider].push(result);
    const repairs = result.repairs.length ? `, repairs: ${result.repairs.join(", ")}` : "";
    console.log(`alert: ${alert}`);
    console.log(`  → ${result.tool}(${JSON.stringify(result.args)})   [rung: ${result.rung}${repairs}]`);
  }
}

// Expectations: every provider made the same decisions, on the rung its profile implies.
const expectedRung: Record<string, string> = {
  openai: "native",
  "azure-openai": "native",
  ollama: "response-format",
  bedrock: "prompt",
};
const decisions = (triages: Triage[]) => JSON.stringify(triages.map(({ tool, args }) => ({ tool, args })));
const reference = decisions(results[wanted[0]!]!);
let failed = false;
for (const provider of wanted) {
  const triages = results[provider]!;
  if (decisions(triages) !== reference) {
    console.error(`FAIL: ${provider} decided differently: ${decisions(triages)}`);
    failed = true;
  }
  if (!live && triages.some((result) => result.rung !== expectedRung[provider])) {
    console.error(`FAIL: ${provider} was expected on the ${expectedRung[provider]} rung`);
    failed = true;
  }
}
if (!live && (results[wanted[0]!]![0]?.tool !== "page_oncall" || results[wanted[0]!]![1]?.tool !== "open_ticket")) {
  console.error("FAIL: expected page_oncall for the outage and open_ticket for the slow export");
  failed = true;
}
if (failed) process.exit(1);
console.log(`\nok: the same agent code made the same ${alerts.length} decisions on ${wanted.length} provider(s).`);
