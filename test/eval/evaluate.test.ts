import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { setTimeout as sleep } from "node:timers/promises";
import { afterEach, describe, expect, it } from "vitest";
import { evaluate, formatTable, type EvalRow } from "../../src/eval/index.js";
import { ScriptedChatModel } from "../../src/testing/index.js";
import { oracle, questionOf, rawStep, rungOf, textStep, toolCallStep, unionReply } from "./eval-models.js";

const tools = [
  {
    name: "get_weather",
    description: "The weather in a city",
    parameters: { type: "object", properties: { city: { type: "string" } }, required: ["city"] },
  },
  {
    name: "lookup_time",
    description: "The time in a zone",
    parameters: { type: "object", properties: { zone: { type: "string" } }, required: ["zone"] },
  },
];
const cases = [
  {
    name: "weather",
    messages: [{ role: "user", content: "Weather in Oslo?" }],
    tools,
    toolChoice: "required",
    expect: { toolCalls: [{ name: "get_weather", args: { city: "Oslo" } }] },
  },
  {
    name: "time",
    messages: [{ role: "user", content: "Time in UTC?" }],
    tools,
    toolChoice: "required",
    expect: { toolCalls: [{ name: "lookup_time", args: { zone: "UTC" } }] },
  },
  {
    name: "chat",
    messages: [{ role: "user", content: "Say hello." }],
    tools,
    expect: { text: { includes: ["hello"] } },
  },
];

/**
 * A model whose right and wrong answers are known, per rung:
 * native — weather right, time calls the wrong tool, chat right (2/3);
 * response-format — all right (3/3), fast;
 * prompt — weather as broken JSON (repaired), time first as prose (re-asked) then right, chat right (3/3, 2 first try), slow.
 */
const known = oracle((input) => {
  const { question, reAsk } = questionOf(input);
  const rung = rungOf(input);
  if (question.includes("hello")) return textStep("Hello there!");
  if (rung === "native") {
    return question.includes("Oslo")
      ? toolCallStep("get_weather", { city: "Oslo" }, { id: "call_1" })
      : toolCallStep("get_weather", { city: "UTC" }, { id: "call_2" });
  }
  if (rung === "response-format") {
    return question.includes("Oslo")
      ? unionReply("get_weather", { city: "Oslo" })
      : unionReply("lookup_time", { zone: "UTC" });
  }
  if (question.includes("Oslo"))
    return rawStep('{"name": "get_weather", "parameters": {"city": "Oslo"}', { delayMs: 25 });
  return reAsk ? unionReply("lookup_time", { zone: "UTC" }, { delayMs: 25 }) : textStep("It is noon.", { delayMs: 25 });
}, "known");

const rowOf = (rows: EvalRow[], profile: string) => rows.find((row) => row.profile === profile)!;

describe("evaluate", () => {
  it("should count successes, first tries, attempts, repairs and rungs per profile, exactly", async () => {
    const report = await evaluate({ cases, models: [known] });
    expect(report.rows.map((row) => row.profile)).toEqual(["native", "response-format", "prompt"]);
    const native = rowOf(report.rows, "native");
    expect(native).toMatchObject({
      model: { providerId: "scripted", modelId: "known" },
      cases: 3,
      successes: 2,
      successRate: 0.667,
      firstTrySuccessRate: 0.667,
      attempts: 1,
      repairsPerCase: {},
      rungs: { native: 3 },
      usage: { inputTokens: 30, outputTokens: 15 },
    });
    expect(native.failures).toEqual([
      {
        case: "time",
        run: 1,
        kind: "expectation",
        reason: 'expected a call of lookup_time; got get_weather({"city":"UTC"})',
      },
    ]);
    expect(rowOf(report.rows, "response-format")).toMatchObject({
      successes: 3,
      successRate: 1,
      firstTrySuccessRate: 1,
      attempts: 1,
      failures: [],
      // chat is "auto": on an empty support set its tools go out without tool_choice, which is auto everywhere (native)
      rungs: { "response-format": 2, native: 1 },
    });
    const prompt = rowOf(report.rows, "prompt");
    expect(prompt).toMatchObject({
      successes: 3,
      successRate: 1,
      firstTrySuccessRate: 0.667,
      attempts: 1.333, // time took two requests
      rungs: { prompt: 2, native: 1 },
      failures: [],
    });
    expect(prompt.repairsPerCase["json-repaired"]).toBe(0.333);
    expect(prompt.results.find((result) => result.case === "time")).toMatchObject({
      ok: true,
      firstTry: false,
      attempts: 2,
    });
    // response-format and prompt tie at 100%: the higher rung wins (prompt is slower too, which decides nothing).
    expect(report.recommendations).toEqual([
      {
        model: { providerId: "scripted", modelId: "known" },
        profile: "response-format",
        options: { toolChoiceSupport: [] },
        successRate: 1,
        p95LatencyMs: rowOf(report.rows, "response-format").latencyMs.p95,
      },
    ]);
    expect(report).toMatchObject({ stopped: false, planned: 9, measured: 9, repeat: 1 });
  });

  it("should report a keelson error's kind and message as the failure reason, with the requests it took", async () => {
    const badArgs = oracle(() => toolCallStep("get_weather", { city: 42 }, { id: "call_1" }), "bad-args");
    const report = await evaluate({ cases: [cases[0]!], models: [badArgs], profiles: ["native"] });
    const [row] = report.rows;
    expect(row).toMatchObject({ cases: 1, successes: 0, successRate: 0, firstTrySuccessRate: 0, attempts: 3 });
    expect(row!.failures).toHaveLength(1);
    expect(row!.failures[0]).toMatchObject({ case: "weather", run: 1, kind: "invalid-args" });
    expect(row!.failures[0]!.reason).toMatch(/city/);
    // A profile with no success is never recommended: the report says none worked.
    expect(report.recommendations).toEqual([]);
    expect(report.noneWorked).toEqual([{ providerId: "scripted", modelId: "bad-args" }]);
    expect(formatTable(report)).toContain("scripted:bad-args → none: no profile succeeded on any case");
    expect(formatTable(report)).not.toContain("→ native");
  });

  it("should recommend, per model, the best success rate first and the profile's constructor options", async () => {
    // Right only on the prompt rung: forced calls answered as prose elsewhere.
    const promptOnly = oracle((input) => {
      const { question } = questionOf(input);
      if (question.includes("hello")) return textStep("hello");
      if (rungOf(input) !== "prompt") return textStep("I would call a tool now.");
      return question.includes("Oslo")
        ? unionReply("get_weather", { city: "Oslo" })
        : unionReply("lookup_time", { zone: "UTC" });
    }, "prompt-only");
    const report = await evaluate({ cases, models: [known, promptOnly] });
    expect(report.rows.map((row) => [row.model.modelId, row.profile, row.successes])).toEqual([
      ["known", "native", 2],
      ["known", "response-format", 3],
      ["known", "prompt", 3],
      ["prompt-only", "native", 1],
      ["prompt-only", "response-format", 1],
      ["prompt-only", "prompt", 3],
    ]);
    expect(rowOf(report.rows.slice(3), "native").failures.map((failure) => failure.kind)).toEqual([
      "tool-choice-violation",
      "tool-choice-violation",
    ]);
    expect(report.recommendations.map((entry) => [entry.model.modelId, entry.profile, entry.options])).toEqual([
      ["known", "response-format", { toolChoiceSupport: [] }],
      ["prompt-only", "prompt", { toolChoiceSupport: [], supportsStructuredOutput: false }],
    ]);
  });

  it("should run a model instance's profiles on clones with the profile's capabilities, leaving the instance as it was", async () => {
    const answer = (input: Parameters<typeof rungOf>[0]) =>
      rungOf(input) === "native"
        ? toolCallStep("get_weather", { city: "Oslo" }, { id: "c1" })
        : unionReply("get_weather", { city: "Oslo" });
    const instance = new ScriptedChatModel(
      Array.from({ length: 10 }, () => answer),
      { modelId: "instance" },
    );
    const report = await evaluate({ cases: [cases[0]!], models: [instance] });
    expect(report.rows.map((row) => [row.profile, row.rungs, row.successes])).toEqual([
      ["native", { native: 1 }, 1],
      ["response-format", { "response-format": 1 }, 1],
      ["prompt", { prompt: 1 }, 1],
    ]);
    expect([...instance.toolChoiceSupport].sort()).toEqual(["auto", "none", "required", "single"]);
    expect(instance.supportsStructuredOutput).toBe(true);
    // The prompt profile's request went out with no tools and no response format: the schema was in the prompt.
    const promptCall = instance.calls.find((call) => call.tools === undefined && call.responseFormat === undefined);
    expect(promptCall?.messages[0]).toMatchObject({ role: "system", content: expect.stringContaining("get_weather") });
  });

  it("should run each case `repeat` times and keep at most `concurrency` calls in flight", async () => {
    let inFlight = 0;
    let most = 0;
    const slow = oracle(async (input) => {
      inFlight++;
      most = Math.max(most, inFlight);
      await sleep(15);
      inFlight--;
      const { question } = questionOf(input);
      if (question.includes("hello")) return textStep("hello");
      const call = question.includes("Oslo") ? ["get_weather", { city: "Oslo" }] : ["lookup_time", { zone: "UTC" }];
      return rungOf(input) === "native"
        ? toolCallStep(call[0] as string, call[1] as Record<string, unknown>, { id: "c1" })
        : unionReply(call[0] as string, call[1] as Record<string, unknown>);
    }, "slow");
    const report = await evaluate({ cases, models: [slow], profiles: ["native", "prompt"], repeat: 3, concurrency: 4 });
    expect(most).toBe(4);
    expect(report).toMatchObject({ planned: 18, measured: 18, repeat: 3, stopped: false });
    for (const row of report.rows) {
      expect(row).toMatchObject({ cases: 9, successes: 9 });
      expect(row.results.map((result) => `${result.case}#${result.run}`)).toEqual([
        "weather#1",
        "weather#2",
        "weather#3",
        "time#1",
        "time#2",
        "time#3",
        "chat#1",
        "chat#2",
        "chat#3",
      ]);
    }
  });

  it("should stop on its signal: calls in flight dropped, the report covering what was measured", async () => {
    const controller = new AbortController();
    const hangs = oracle(async (input) => {
      if (questionOf(input).question.includes("Oslo"))
        return toolCallStep("get_weather", { city: "Oslo" }, { id: "c1" });
      // Answers only when stopped.
      await new Promise((resolve) => controller.signal.addEventListener("abort", resolve, { once: true }));
      return textStep("too late");
    }, "hangs");
    const seen: number[] = [];
    const report = await evaluate({
      cases,
      models: [hangs],
      profiles: ["native"],
      concurrency: 2,
      signal: controller.signal,
      onResult: ({ done, total }) => {
        seen.push(done, total);
        controller.abort();
      },
    });
    expect(seen).toEqual([1, 3]);
    expect(report).toMatchObject({ stopped: true, planned: 3, measured: 1 });
    expect(report.rows[0]).toMatchObject({ cases: 1, successes: 1, successRate: 1, failures: [] });
    expect(report.recommendations).toHaveLength(1);
  });
});

describe("evaluate on the seed's folder format", () => {
  let folder: string | undefined;
  afterEach(() => folder && rmSync(folder, { recursive: true, force: true }));

  it("should read bare message lists with one tools_schema file, a valid reply counting as a success", async () => {
    folder = mkdtempSync(join(tmpdir(), "keelson-seed-"));
    const functions = tools.map(({ name, description, parameters }) => ({
      type: "function",
      function: { name, description, parameters },
    }));
    writeFileSync(join(folder, "tools_schema.json"), JSON.stringify(functions));
    writeFileSync(join(folder, "01_weather.json"), JSON.stringify([{ role: "user", content: "Weather in Oslo?" }]));
    writeFileSync(
      join(folder, "02_follow_up.json"),
      JSON.stringify([
        { role: "user", content: "Weather in Oslo?" },
        {
          role: "assistant",
          content: null,
          tool_calls: [
            { id: "call_a", type: "function", function: { name: "get_weather", arguments: '{"city":"Oslo"}' } },
          ],
        },
        { role: "tool", tool_call_id: "call_a", content: "12°C, rain" },
      ]),
    );
    writeFileSync(join(folder, "03_unknown_tool.json"), JSON.stringify([{ role: "user", content: "Book a flight." }]));
    const model = oracle((input) => {
      const last = input.messages.at(-1)!;
      if (last.role === "tool") return textStep("It is 12°C and raining in Oslo.");
      const { question } = questionOf(input);
      return question.includes("flight")
        ? toolCallStep("book_flight", { to: "Rome" }, { id: "c9" })
        : toolCallStep("get_weather", { city: "Oslo" }, { id: "c1" });
    }, "seed");
    const report = await evaluate({ cases: folder, models: [model], profiles: ["native"] });
    const [row] = report.rows;
    expect(row!.results.map((result) => [result.case, result.ok])).toEqual([
      ["01_weather", true],
      ["02_follow_up", true],
      ["03_unknown_tool", false],
    ]);
    expect(row!.failures).toEqual([expect.objectContaining({ case: "03_unknown_tool", kind: "unknown-tool" })]);
    // The OpenAI-style history was read as keelson messages: the tool result answers get_weather.
    expect(report.caseMessages["02_follow_up"]![2]).toMatchObject({
      role: "tool",
      toolName: "get_weather",
      content: "12°C, rain",
    });
  });

  it("should name the file and the problem when a case file is wrong", async () => {
    folder = mkdtempSync(join(tmpdir(), "keelson-seed-"));
    writeFileSync(join(folder, "bad.json"), JSON.stringify({ messages: [], tools }));
    await expect(evaluate({ cases: folder, models: [known] })).rejects.toThrow(
      /bad\.json: `messages` must be a non-empty list/,
    );
    writeFileSync(
      join(folder, "bad.json"),
      JSON.stringify({ messages: [{ role: "user", content: "x" }], tools, toolChoice: "book" }),
    );
    await expect(evaluate({ cases: folder, models: [known] })).rejects.toThrow(
      /bad\.json: toolChoice must be .*get_weather, lookup_time/,
    );
  });
});
