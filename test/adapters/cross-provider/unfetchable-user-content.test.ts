// A user part a provider cannot take (an image or a file it would have to fetch by URL) is the
// same failure on every adapter: an UnsupportedFeatureError before any request, so that agent code
// can catch one class and fall back (download the file, send its bytes) whatever the provider.
import { describe, expect, it } from "vitest";
import type { ChatModel, Message } from "../../../src/index.js";
import { UnsupportedFeatureError } from "../../../src/index.js";
import { OpenAIChatModel } from "../../../src/adapters/openai/index.js";
import { AzureOpenAIChatModel } from "../../../src/adapters/azure-openai/index.js";
import { OllamaChatModel } from "../../../src/adapters/ollama/index.js";
import { useLoopbackServer } from "../../support/loopback-server.js";
import { useBedrockLoopback } from "../../support/bedrock-loopback.js";
import { callModes, settleCall } from "../../support/run-modes.js";

const server = useLoopbackServer();
const bedrock = useBedrockLoopback();

const models: Record<string, () => ChatModel> = {
  openai: () => new OpenAIChatModel("gpt-4o", { baseURL: `${server.url}/v1`, apiKey: "k" }),
  "azure-openai": () => new AzureOpenAIChatModel("gpt-4o", { endpoint: server.url, apiKey: "k" }),
  ollama: () => new OllamaChatModel("llava", { host: server.url }),
  bedrock: () => bedrock.model("us.anthropic.claude-sonnet-4-5-20250929-v1:0"),
};

const ask = (part: Exclude<Extract<Message, { role: "user" }>["content"], string>[number]): Message[] => [
  { role: "user", content: [{ type: "text", text: "What is in it?" }, part] },
];
const cases: { name: string; messages: Message[]; refusedBy: string[] }[] = [
  {
    name: "an image by https URL",
    messages: ask({ type: "image", image: "https://example.com/cat.png" }),
    refusedBy: ["ollama", "bedrock"],
  },
  {
    name: "a PDF by https URL",
    messages: ask({ type: "file", data: "https://example.com/report.pdf", mediaType: "application/pdf" }),
    refusedBy: ["openai", "azure-openai", "ollama", "bedrock"],
  },
];

describe.each(callModes)("user content a provider cannot fetch, through %s", (mode) => {
  for (const { name, messages, refusedBy } of cases) {
    it.each(refusedBy)(
      `should refuse ${name} on %s with an UnsupportedFeatureError, sending nothing`,
      async (provider) => {
        const { error } = await settleCall(models[provider]!(), { messages, maxRetries: 0 }, mode);
        expect(UnsupportedFeatureError.isInstance(error), `got ${error?.name}: ${error?.message}`).toBe(true);
        expect(server.requests.length + bedrock.server.requests.length).toBe(0);
      },
    );
  }
});
