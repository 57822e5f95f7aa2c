import { describe, expect, it } from "vitest";
import { evaluate, formatTable } from "../../src/eval/index.js";
import type { ChatModelOptions, ProviderInput } from "../../src/index.js";
import { ScriptedChatModel, errorStep, type ScriptedStep } from "../../src/testing/index.js";
import { questionOf, rungOf, textStep, toolCallStep, unionReply } from "./eval-models.js";

const tools = [
  {
    name: "get_weather",
    parameters: { type: "object", properties: { city: { type: "string" } }, required: ["city"] },
  },
];
const weather = {
  name: "weather",
  messages: [{ role: "user", content: "Weather in Oslo?" }],
  tools,
  toolChoice: "required",
  expect: { toolCalls: [{ name: "get_weather", args: { city: "Oslo" } }] },
};
const thanks = {
  name: "thanks",
  messages: [{ role: "user", content: "Thanks, that is all." }],
  tools,
  expect: { noToolCall: true },
};

/** A right answer on every rung, or a wrong one where `wrong(input)` says so. */
const rightAnswer = (input: ProviderInput): ScriptedStep => {
  if (questionOf(input).question.includes("Thanks")) return textStep("You are welcome.");
  return rungOf(input) === "native"
    ? toolCallStep("get_weather", { city: "Oslo" }, { id: "c1" })
    : unionReply("get_weather", { city: "Oslo" });
};

/**
 * A factory of scripted models (one per profile) whose first request is answered wrong, as a cold
 * model might, and every later one by `answer`; each model's requests are counted in `requests`.
 */
function coldThen(answer: (input: ProviderInput) => ScriptedStep, requests: number[], modelId = "cold") {
  return (options: ChatModelOptions) => {
    const slot = requests.push(0) - 1;
    const step = (input: ProviderInput) => {
      requests[slot]!++;
      return requests[slot] === 1 ? errorStep({ statusCode: 400, message: "model is loading" }) : answer(input);
    };
    return new ScriptedChatModel(
      Array.from({ length: 50 }, () => step),
      { ...options, modelId },
    );
  };
}

describe("evaluate's recommendation", () => {
  it("should send one uncounted warm-up request per model × profile before the counted runs", async () => {
    const requests: number[] = [];
    const report = await evaluate({ cases: [weather], models: [coldThen(rightAnswer, requests)], repeat: 2 });
    // idOf builds one model to read its name; the three profiles' models each took 1 warm-up + 2 runs.
    expect(requests.filter((count) => count > 0)).toEqual([3, 3, 3]);
    expect(report.rows.map((row) => [row.profile, row.cases, row.successes])).toEqual([
      ["native", 2, 2],
      ["response-format", 2, 2],
      ["prompt", 2, 2],
    ]);
    expect(report.rows.every((row) => typeof row.warmUpMs === "number")).toBe(true);
    expect(report).toMatchObject({ planned: 6, measured: 6 });
  });

  it("should count the cold first request as a run when warmUp is false", async () => {
    const requests: number[] = [];
    const report = await evaluate({
      cases: [weather],
      models: [coldThen(rightAnswer, requests)],
      profiles: ["native"],
      warmUp: false,
    });
    expect(report.rows[0]).toMatchObject({ cases: 1, successes: 0 });
    expect(report.rows[0]!.warmUpMs).toBeUndefined();
  });

  it("should give equal success rates to the higher rung, however slow it is", async () => {
    // native answers slowly, prompt at once: both always right.
    const slowNative = (input: ProviderInput): ScriptedStep =>
      rungOf(input) === "native"
        ? toolCallStep("get_weather", { city: "Oslo" }, { id: "c1", delayMs: 30 })
        : unionReply("get_weather", { city: "Oslo" });
    const report = await evaluate({
      cases: [weather],
      models: [coldThen(slowNative, [])],
      profiles: ["prompt", "response-format", "native"],
      repeat: 2,
    });
    expect(report.rows.map((row) => row.successRate)).toEqual([1, 1, 1]);
    expect(report.recommendations.map((entry) => [entry.profile, entry.options])).toEqual([
      ["native", { toolChoiceSupport: ["auto", "none", "required", "single"] }],
    ]);
  });

  it("should prefer response-format to prompt on a tie, and a higher success rate to any rung", async () => {
    const noNative = (input: ProviderInput): ScriptedStep =>
      rungOf(input) === "native" ? textStep("I would call get_weather.") : unionReply("get_weather", { city: "Oslo" });
    const report = await evaluate({ cases: [weather], models: [coldThen(noNative, [])] });
    expect(report.rows.map((row) => [row.profile, row.successRate])).toEqual([
      ["native", 0],
      ["response-format", 1],
      ["prompt", 1],
    ]);
    expect(report.recommendations.map((entry) => entry.profile)).toEqual(["response-format"]);
  });

  it("should rank a custom profile by the rung its options select", async () => {
    const report = await evaluate({
      cases: [weather],
      models: [coldThen(rightAnswer, [])],
      profiles: ["prompt", { name: "forced-native", options: { toolChoiceSupport: ["auto", "required", "single"] } }],
    });
    expect(report.recommendations.map((entry) => entry.profile)).toEqual(["forced-native"]);
  });

  it("should never recommend a profile with no success, and say that none worked", async () => {
    const wrong = () => textStep("No idea.");
    const report = await evaluate({ cases: [weather], models: [coldThen(wrong, [], "hopeless")] });
    expect(report.rows.map((row) => row.successRate)).toEqual([0, 0, 0]);
    expect(report.recommendations).toEqual([]);
    expect(report.noneWorked).toEqual([{ providerId: "scripted", modelId: "hopeless" }]);
    expect(formatTable(report)).toMatch(/scripted:hopeless → none: no profile succeeded on any case/);
  });

  it("should score restraint: a call made where none was wanted fails the case and is counted", async () => {
    // One model calls get_weather whatever it is asked; the other thanks back.
    const eager = () => toolCallStep("get_weather", { city: "Oslo" }, { id: "c1" });
    const report = await evaluate({
      cases: [weather, thanks],
      models: [coldThen(eager, [], "eager"), coldThen(rightAnswer, [], "polite")],
      profiles: ["native"],
    });
    const [eagerRow, politeRow] = report.rows;
    expect(eagerRow).toMatchObject({ successes: 1, restraint: { cases: 1, toolCalls: 1 } });
    expect(eagerRow!.failures).toEqual([
      {
        case: "thanks",
        run: 1,
        kind: "expectation",
        reason: 'expected no tool call; got get_weather({"city":"Oslo"})',
      },
    ]);
    expect(politeRow).toMatchObject({ successes: 2, restraint: { cases: 1, toolCalls: 0 }, failures: [] });
    const table = formatTable(report).split("\n");
    expect(table[0]).toMatch(/unwanted calls/);
    expect(table.find((line) => line.startsWith("scripted:eager"))).toMatch(/ 1\/1 /);
    expect(table.find((line) => line.startsWith("scripted:polite"))).toMatch(/ 0\/1 /);
  });

  it("should refuse noToolCall beside expected calls, and a noToolCall that is not a boolean", async () => {
    await expect(
      evaluate({
        cases: [{ ...thanks, expect: { noToolCall: true, toolCalls: [{ name: "get_weather" }] } }],
        models: [],
      }),
    ).rejects.toThrow(/noToolCall is true but expect.toolCalls lists calls/);
    await expect(evaluate({ cases: [{ ...thanks, expect: { noToolCall: "yes" } }], models: [] })).rejects.toThrow(
      /expect.noToolCall must be true or false/,
    );
  });
});
