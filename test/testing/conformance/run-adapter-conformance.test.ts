import { describe, expect, it } from "vitest";
import { OpenAIChatModel } from "../../../src/adapters/openai/index.js";
import type { ProviderInput, ProviderOutput, RunContext } from "../../../src/index.js";
import type { AdapterConformanceOptions } from "../../../src/testing/index.js";
import { runAdapterConformance } from "../../../src/testing/index.js";
import { jsonResponse, openAITextReply, readOpenAIRequest, readOwnOpenAIFixture } from "../../support/openai-wire.js";

interface Collected {
  name: string;
  body: () => Promise<void>;
}

/** Runs the suite's definition with a recording describe/it, so single tests can be run by hand. */
function collect(options: AdapterConformanceOptions): Collected[] {
  const tests: Collected[] = [];
  const path: string[] = [];
  runAdapterConformance(
    {
      describe: (name, body) => {
        path.push(name);
        body();
        path.pop();
      },
      it: (name, body) => tests.push({ name: [...path, name].join(" > "), body }),
    },
    options,
  );
  return tests;
}

/** An adapter that loses the usage the provider reported: the suite must catch it. */
class UsageLosingChatModel extends OpenAIChatModel {
  protected override async _create(input: ProviderInput, context: RunContext): Promise<ProviderOutput> {
    const output = await super._create(input, context);
    return { ...output, usage: undefined };
  }
}

function options(make: (baseURL: string) => OpenAIChatModel): AdapterConformanceOptions {
  return {
    name: "subject",
    modes: ["create"],
    createModel: make,
    textReply: openAITextReply,
    readRequest: readOpenAIRequest,
    scenarios: {
      text: [
        {
          name: "usage",
          reply: { create: jsonResponse(readOwnOpenAIFixture("chat-text-reasoning-usage.json")) },
          expected: { text: "Hello! How can I assist you today?", usage: { inputTokens: 1200, cachedInputTokens: 64 } },
        },
      ],
    },
  };
}

describe("runAdapterConformance", () => {
  it("should define its tests through the given describe and it", () => {
    const names = collect(options((baseURL) => new OpenAIChatModel("m", { baseURL, apiKey: "k" }))).map((test) => test.name);
    expect(names).toContain("subject > create > should return the recorded text, finish reason and usage (usage)");
    expect(names.some((name) => name.includes("AbortError"))).toBe(true);
    expect(names.some((name) => name.includes("response format"))).toBe(true);
  });

  it("should pass a correct adapter and fail one that loses the usage", async () => {
    const good = collect(options((baseURL) => new OpenAIChatModel("m", { baseURL, apiKey: "k" })));
    const bad = collect(options((baseURL) => new UsageLosingChatModel("m", { baseURL, apiKey: "k" })));
    const pick = (tests: Collected[]) => tests.find((test) => test.name.includes("recorded text"))!.body;
    await expect(pick(good)()).resolves.toBeUndefined();
    await expect(pick(bad)()).rejects.toThrow(/usage\.inputTokens/);
  });
});
