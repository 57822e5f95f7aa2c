/**
 * Records the cassettes in examples/cassettes/ by driving the REAL adapters — OpenAIChatModel,
 * AzureOpenAIChatModel, OllamaChatModel and BedrockChatModel, each through its own SDK — wrapped in
 * RecordingChatModel, against LOOPBACK FAKES of the four providers (examples/support/fake-providers.ts).
 * No live provider is involved: the answers come from the fakes, in each provider's wire format.
 *
 *   npx tsx examples/record-cassettes.ts                      # rewrite examples/cassettes/
 *   KEELSON_CASSETTE_DIR=/tmp/c npx tsx examples/record-cassettes.ts   # write elsewhere (run-all.sh
 *                                                              # does this and diffs the result)
 *
 * To record against a real provider instead, build the adapter without the loopback URL and fake
 * key (e.g. `new OllamaChatModel("llama3.1")`) and keep the rest: that is all `RecordingChatModel` needs.
 */
import { mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import type { ChatModel } from "keelson";
import { AzureOpenAIChatModel } from "keelson/azure-openai";
import { BedrockChatModel } from "keelson/bedrock";
import { OllamaChatModel } from "keelson/ollama";
import { OpenAIChatModel } from "keelson/openai";
import { RecordingChatModel } from "keelson/testing";
import { answerQuestion, lookupIncident } from "./support/incident-agent.js";
import { startFakeProviders, type FakeProviders } from "./support/fake-providers.js";
import { alerts, triage } from "./support/triage-agent.js";

const outDir = process.env.KEELSON_CASSETTE_DIR ?? fileURLToPath(new URL("./cassettes/", import.meta.url));
mkdirSync(outDir, { recursive: true });

// Fake credentials: RecordingChatModel scrubs key-shaped text anyway, and provider inputs carry none.
const fakeOpenAIKey = "sk-fake-loopback-0000000000";
const fakeAWS = { accessKeyId: "AKIAFAKELOOPBACK0000", secretAccessKey: "fake-secret-for-the-loopback-server" };

const fakes = await startFakeProviders();
try {
  const adapters: Record<string, () => ChatModel> = {
    // A custom baseURL would drop "required" from OpenAI's profile (many gateways refuse it); the
    // fake stands for api.openai.com, so the profile is given as OpenAI's own.
    openai: () =>
      new OpenAIChatModel("gpt-4o-mini", {
        apiKey: fakeOpenAIKey,
        baseURL: `${fakes.httpURL}/v1`,
        toolChoiceSupport: ["auto", "none", "required", "single"],
      }),
    "azure-openai": () =>
      new AzureOpenAIChatModel("gpt-4o-mini-prod", {
        endpoint: fakes.httpURL,
        apiKey: "fake-azure-key-0000",
        apiVersion: "2024-10-21",
      }),
    ollama: () => new OllamaChatModel("llama3.1", { host: fakes.httpURL }),
    bedrock: () =>
      new BedrockChatModel("us.meta.llama3-3-70b-instruct-v1:0", {
        region: "us-east-1",
        endpoint: fakes.http2URL,
        credentials: fakeAWS,
      }),
  };

  // (c) the triage agent, on each provider.
  for (const [provider, build] of Object.entries(adapters)) {
    await record(fakes, `triage.${provider}`, build(), async (model) => {
      for (const alert of alerts) await triage(model, alert);
    });
  }

  // (d) a multi-turn agent (tool call, tool result, answer), recorded on OpenAI's adapter.
  await record(fakes, "incident-agent.openai", adapters.openai!(), async (model) => {
    await answerQuestion(model, "What is going on with INC-001?");
  });

  // (e) a forced call of one tool on Ollama: the tool-union schema travels as Ollama's `format`.
  await record(fakes, "ollama-forced-tool-call", adapters.ollama!(), async (model) => {
    await model.create({
      messages: [{ role: "user", content: "Look up INC-001." }],
      tools: [lookupIncident],
      toolChoice: lookupIncident,
    });
  });
} finally {
  await fakes.close();
}

/** Runs `drive` on the adapter wrapped in a recorder; writes `<name>.json` and the wire bodies `<name>.wire.json`. */
async function record(
  fakes: FakeProviders,
  name: string,
  adapter: ChatModel,
  drive: (model: ChatModel) => Promise<void>,
): Promise<void> {
  const cassette = join(outDir, `${name}.json`);
  const recorder = new RecordingChatModel(adapter, { cassette });
  fakes.takeRequests();
  await drive(recorder);
  const wire = fakes.takeRequests();
  writeFileSync(join(outDir, `${name}.wire.json`), `${JSON.stringify(wire, null, 2)}\n`);
  console.log(`recorded ${name}: ${wire.length} request(s) through ${adapter.constructor.name} → ${cassette}`);
}
