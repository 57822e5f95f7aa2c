import { describe, expect, it } from "vitest";
import { OpenAIChatModel } from "../../../src/adapters/openai/index.js";
import type { ChatModelOptions, ProviderInput, ProviderOutput, RunContext } from "../../../src/index.js";
import type { AdapterConformanceOptions, ConformanceTestAPI, ReplayServer } from "../../../src/testing/index.js";
import { conformanceCases, runAdapterConformance, startReplayServer } from "../../../src/testing/index.js";
import { jsonResponse, openAITextReply, readOpenAIRequest, readOwnOpenAIFixture } from "../../support/openai-wire.js";

interface Collected {
  name: string;
  body: () => Promise<void>;
  skipped: boolean;
}

/** Runs the suite's definition with a recording describe/it, so single tests can be run by hand. */
function collect(options: AdapterConformanceOptions, withSkip = true): Collected[] {
  const tests: Collected[] = [];
  const path: string[] = [];
  const it: ConformanceTestAPI["it"] = (name, body) =>
    tests.push({ name: [...path, name].join(" > "), body, skipped: false });
  if (withSkip) it.skip = (name, body) => tests.push({ name: [...path, name].join(" > "), body, skipped: true });
  runAdapterConformance(
    {
      describe: (name, body) => {
        path.push(name);
        body();
        path.pop();
      },
      it,
    },
    options,
  );
  return tests;
}

const pick = (tests: Collected[], fragment: string) => {
  const found = tests.find((test) => test.name.includes(fragment) && !test.skipped);
  if (!found) throw new Error(`no test named like '${fragment}' in ${tests.map((test) => test.name).join("\n")}`);
  return found.body;
};

/** An adapter that loses the usage the provider reported: the suite must catch it. */
class UsageLosingChatModel extends OpenAIChatModel {
  protected override async _create(input: ProviderInput, context: RunContext): Promise<ProviderOutput> {
    const output = await super._create(input, context);
    return { ...output, usage: undefined };
  }
}

/** An adapter that sends a failed request again on its own, as an SDK left with its retries on would. */
class SelfRetryingChatModel extends OpenAIChatModel {
  protected override async _create(input: ProviderInput, context: RunContext): Promise<ProviderOutput> {
    try {
      return await super._create(input, context);
    } catch {
      return await super._create(input, context);
    }
  }
}

/** An adapter keeping state in a #private field, which no clone() can carry. */
class HashPrivateChatModel extends OpenAIChatModel {
  #prefix = "hash-private: ";
  protected override async _create(input: ProviderInput, context: RunContext): Promise<ProviderOutput> {
    const output = await super._create(input, context);
    return { ...output, text: this.#prefix + (output.text ?? "") };
  }
}

function options(
  make: (baseURL: string, modelOptions: ChatModelOptions) => OpenAIChatModel,
  extra: Partial<AdapterConformanceOptions> = {},
): AdapterConformanceOptions {
  return {
    name: "subject",
    modes: ["create"],
    createModel: make,
    textReply: openAITextReply,
    readRequest: readOpenAIRequest,
    retryableError: jsonResponse(readOwnOpenAIFixture("error-429-rate-limit.json"), 429, { "retry-after": "0" }),
    scenarios: {
      text: [
        {
          name: "usage",
          reply: { create: jsonResponse(readOwnOpenAIFixture("chat-text-reasoning-usage.json")) },
          expected: { text: "Hello! How can I assist you today?", usage: { inputTokens: 1200, cachedInputTokens: 64 } },
        },
      ],
    },
    ...extra,
  };
}

const good = (baseURL: string, modelOptions: ChatModelOptions) =>
  new OpenAIChatModel("m", { baseURL, apiKey: "k", ...modelOptions });

describe("runAdapterConformance", () => {
  it("should define its tests through the given describe and it", () => {
    const names = collect(options(good)).map((test) => test.name);
    expect(names).toContain("subject > create > should return the recorded text, finish reason and usage (usage)");
    for (const id of ["abort", "response-format-rung", "clone", "no-sdk-retries", "retry"] as const) {
      expect(names.some((name) => name.includes(conformanceCases[id]))).toBe(true);
    }
  });

  it("should pass a correct adapter and fail one that loses the usage", async () => {
    await expect(pick(collect(options(good)), "recorded text")()).resolves.toBeUndefined();
    const bad = collect(
      options((baseURL, modelOptions) => new UsageLosingChatModel("m", { baseURL, apiKey: "k", ...modelOptions })),
    );
    await expect(pick(bad, "recorded text")()).rejects.toThrow(/usage\.inputTokens/);
  });

  it("should fail an adapter that retries on its own, under a dropped connection and a 429", async () => {
    const retrying = collect(
      options((baseURL, modelOptions) => new SelfRetryingChatModel("m", { baseURL, apiKey: "k", ...modelOptions })),
    );
    await expect(
      pick(retrying, "maxRetries + 1 requests when every attempt fails (a dropped connection)")(),
    ).rejects.toThrow(/one request per attempt/);
    await expect(pick(retrying, "maxRetries + 1 requests when every attempt fails (the provider's")()).rejects.toThrow(
      /one request per attempt/,
    );
    await expect(
      pick(collect(options(good)), "maxRetries + 1 requests when every attempt fails (a dropped")(),
    ).resolves.toBeUndefined();
  });

  it("should fail an adapter that keeps state in a #private field on clone()", async () => {
    const tests = collect(
      options((baseURL, modelOptions) => new HashPrivateChatModel("m", { baseURL, apiKey: "k", ...modelOptions })),
    );
    await expect(pick(tests, conformanceCases.clone)()).rejects.toThrow(/private/i);
    await expect(pick(collect(options(good)), conformanceCases.clone)()).resolves.toBeUndefined();
  });

  it("should report declared skips and cases without recordings through it.skip, with the reason", () => {
    const tests = collect(options(good, { skip: { abort: "this provider cannot be aborted (test)" } }));
    const skipped = tests.filter((test) => test.skipped).map((test) => test.name);
    expect(skipped).toContain(
      `subject > create > ${conformanceCases.abort} — skipped: this provider cannot be aborted (test)`,
    );
    expect(skipped).toContain(
      `subject > create > ${conformanceCases["tool-call"]} — skipped: no create recording given in this run`,
    );
    expect(tests.some((test) => !test.skipped && test.name.includes(conformanceCases.abort))).toBe(false);
  });

  it("should name a skipped case as such when the framework has no it.skip", () => {
    const tests = collect(options(good, { skip: { clone: "no clone here (test)" } }), false);
    expect(tests.map((test) => test.name)).toContain(
      `subject > create > [skipped] ${conformanceCases.clone} — skipped: no clone here (test)`,
    );
  });

  it("should refuse a skip without a reason, an unknown case, a skipped case with recordings, and a call without an id", () => {
    expect(() => collect(options(good, { skip: { abort: " " } }))).toThrow(/needs a reason/);
    expect(() => collect(options(good, { skip: { nonsense: "x" } as never }))).toThrow(/unknown case 'nonsense'/);
    expect(() => collect(options(good, { skip: { text: "no text" } }))).toThrow(/skipped but has recordings/);
    const withoutId = { toolCall: [{ name: "x", reply: {}, tools: [], expected: { name: "f", args: {} } }] };
    expect(() => collect(options(good, { scenarios: withoutId }))).toThrow(/has no id/);
    expect(() =>
      collect(options(good, { scenarios: withoutId, skip: { "tool-call-ids": "none given (test)" } })),
    ).not.toThrow();
  });

  it("should start each test's server from the given factory and hand it to createModel", async () => {
    const started: ReplayServer[] = [];
    const seen: ReplayServer[] = [];
    const tests = collect(
      options(good, {
        server: async () => {
          const server = await startReplayServer();
          started.push(server);
          return server;
        },
        createModel: (baseURL, modelOptions, server) => {
          seen.push(server);
          return new OpenAIChatModel("m", { baseURL, apiKey: "k", ...modelOptions });
        },
      }),
    );
    await pick(tests, "recorded text")();
    expect(started).toHaveLength(1);
    expect(seen).toEqual(started);
  });
});
