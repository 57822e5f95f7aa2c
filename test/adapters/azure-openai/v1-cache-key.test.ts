import { describe, expect, it } from "vitest";
import { AzureOpenAIChatModel } from "../../../src/adapters/azure-openai/index.js";
import { MemoryCache } from "../../../src/index.js";
import { answerWithText } from "../../support/openai-wire.js";
import { useAzureServer } from "./azure-harness.js";

const user = [{ role: "user" as const, content: "What is the capital of France?" }];
const azure = useAzureServer((server) => answerWithText(server, "Paris"));

/** docs/providers.md: "The cache key includes the endpoint and the api-version" — the v1 API's too. */
describe("AzureOpenAIChatModel on the v1 GA endpoint", () => {
  it("should not share cached answers between the v1 API with and without an api-version", async () => {
    const cache = new MemoryCache();
    const endpoint = `${azure.server.url}/openai/v1`;
    await new AzureOpenAIChatModel("my-gpt4o", { endpoint, apiKey: "k", cache }).create({ messages: user });
    const preview = await new AzureOpenAIChatModel("my-gpt4o", {
      endpoint,
      apiKey: "k",
      apiVersion: "preview",
      cache,
    }).create({ messages: user });
    expect(preview.meta.cacheHit).toBe(false);
    expect(azure.server.requests.map((request) => request.url)).toEqual([
      "/openai/v1/chat/completions",
      "/openai/v1/chat/completions?api-version=preview",
    ]);
  });
});
