import { describe, expect, it } from "vitest";
import { AnthropicChatModel } from "../../../src/adapters/anthropic/index.js";
import { costOf } from "../../../src/index.js";
import { knownModelProfile } from "../../../src/core/profiles/model-profile.js";
import { ScriptedChatModel, textStep } from "../../../src/testing/index.js";
import { sendJSON, useLoopbackServer } from "../../support/loopback-server.js";
import { callModes, runCall, user } from "../../support/run-modes.js";
import { hasSharedFixtures, missingFixturesMessage, readJSONFixture } from "../../support/shared-fixtures.js";

describe("model.profile", () => {
  it.each([
    ["openai", "gpt-4o-2024-08-06", 128_000, 2.5],
    ["openai", "gpt-4o-mini-2024-07-18", 128_000, 0.15],
    ["azure-openai", "gpt-4.1", 1_047_576, 2],
    ["anthropic", "claude-sonnet-4-5-20250929", 200_000, 3],
    ["anthropic", "claude-haiku-4-5-20251001", 200_000, 1],
    ["bedrock", "us.anthropic.claude-sonnet-4-20250514-v1:0", 200_000, 3],
    ["bedrock", "us.amazon.nova-micro-v1:0", 128_000, 0.035],
    ["gemini", "gemini-2.5-pro-preview-05-06", 1_048_576, 1.25],
  ])("should know %s %s from the dated table", (providerId, modelId, contextWindow, inputPerMTok) => {
    const profile = knownModelProfile(providerId, modelId);
    expect(profile).toMatchObject({ contextWindow, pricing: { inputPerMTok } });
    expect(profile.asOf).toMatch(/^\d{4}-\d{2}-\d{2}$/);
  });

  it.each([
    ["ollama", "qwen3:0.6b", 40_960],
    ["ollama", "llama3.2", 131_072],
    ["ollama", "gpt-oss:20b", 131_072],
  ])("should know the context window of %s %s, with no price", (providerId, modelId, contextWindow) => {
    expect(knownModelProfile(providerId, modelId)).toEqual({
      contextWindow,
      maxOutputTokens: contextWindow,
      asOf: expect.any(String),
    });
  });

  it.each([
    ["openai", "gpt-5-pro"],
    ["openai", "gpt-4o-audio-preview-x"],
    ["ollama", "llama3.10:8b"],
    ["groq", "gpt-4o"],
    ["scripted", "scripted"],
  ])("should not read %s %s as another model", (providerId, modelId) => {
    const profile = knownModelProfile(providerId, modelId);
    if (modelId === "gpt-4o-audio-preview-x") expect(profile.pricing?.inputPerMTok).not.toBe(0.15);
    else expect(profile).toEqual({});
  });

  it("should take the options of the same names over the table", () => {
    const pricing = { inputPerMTok: 9, outputPerMTok: 9 };
    const model = new ScriptedChatModel([], { contextWindow: 1000, maxOutputTokens: 100, pricing });
    expect(model.profile).toEqual({ contextWindow: 1000, maxOutputTokens: 100, pricing });
  });

  it.each([
    [{ contextWindow: 0 }, /contextWindow option must be a positive integer/],
    [{ maxOutputTokens: 1.5 }, /maxOutputTokens option must be a positive integer/],
    [{ pricing: { inputPerMTok: 1 } }, /pricing\.outputPerMTok must be a non-negative number/],
    [{ pricing: { inputPerMTok: 1, outputPerMTok: -1 } }, /pricing\.outputPerMTok/],
    [{ pricing: "cheap" }, /pricing option must be/],
  ])("should refuse %j with a message naming the option", (options, message) => {
    expect(() => new ScriptedChatModel([], options as never)).toThrow(message);
  });
});

describe.each(callModes)("usage.costUsd (%s)", (mode) => {
  it("should price a call where the pricing is known, and leave it out where it is not", async () => {
    const usage = { inputTokens: 1000, outputTokens: 500, totalTokens: 1500 };
    const priced = new ScriptedChatModel([textStep("hi", { usage })], {
      pricing: { inputPerMTok: 2, outputPerMTok: 8 },
    });
    expect((await runCall(priced, { messages: [user("hi")] }, mode)).output.usage.costUsd).toBeCloseTo(0.006, 12);
    const unpriced = new ScriptedChatModel([textStep("hi", { usage })]);
    expect((await runCall(unpriced, { messages: [user("hi")] }, mode)).output.usage).not.toHaveProperty("costUsd");
  });
});

describe.skipIf(!hasSharedFixtures)("cached-token savings, priced from recorded usage", () => {
  if (!hasSharedFixtures) it.skip(missingFixturesMessage, () => undefined);
  const server = useLoopbackServer();

  it("should price Anthropic's cache reads and writes at their own rates", async () => {
    const recorded = readJSONFixture<{ usage: Record<string, number> }>(
      "anthropic/messages-nonstream-cache-read-and-write-tokens.json",
    );
    server.handle((_request, response) => sendJSON(response, 200, recorded));
    const model = new AnthropicChatModel("claude-sonnet-4-5-20250929", { baseURL: server.url, apiKey: "sk-ant-test" });
    const { usage } = await model.create({ messages: [user("hi")] });
    // Recorded: 3 uncached, 1111 read from the cache, 418 written to it, 33 out — at $3 / $0.30 / $3.75 / $15 per MTok.
    expect(usage).toMatchObject({
      inputTokens: 1532,
      cachedInputTokens: 1111,
      cacheWriteInputTokens: 418,
      outputTokens: 33,
    });
    const expected = (3 * 3 + 1111 * 0.3 + 418 * 3.75 + 33 * 15) / 1e6;
    expect(usage.costUsd).toBeCloseTo(expected, 12);
    const uncached = costOf({ ...usage, cachedInputTokens: 0, cacheWriteInputTokens: 0 }, model.profile.pricing!);
    // The cache saved what reading 1111 tokens at a tenth of the price saves, less the writes' premium.
    expect(uncached - usage.costUsd!).toBeCloseTo((1111 * 2.7 - 418 * 0.75) / 1e6, 12);
  });
});
