import { describe, expect, it } from "vitest";
import { z } from "zod";
import { defineTool } from "../../src/index.js";
import { ScriptedChatModel, textStep, toolCallStep } from "../../src/testing/index.js";
import { runErrorIn, runIn, runModes } from "../support/run-tools-modes.js";

const lookup = defineTool({
  name: "lookup",
  inputSchema: z.object({ id: z.string() }),
  execute: () => "result ".repeat(400),
});
const pricing = { inputPerMTok: 1, outputPerMTok: 4 };
const usage = (inputTokens: number, outputTokens = 50) => ({
  usage: { inputTokens, outputTokens, totalTokens: inputTokens + outputTokens },
});
const ask = [{ role: "user" as const, content: "Find it." }];
/** A model that looks something up at every step, each step's input larger than the last. */
const looping = (options = {}) =>
  new ScriptedChatModel(
    Array.from({ length: 8 }, (_, step) => toolCallStep("lookup", { id: String(step) }, usage(200 + step * 600))),
    { pricing, ...options },
  );

describe.each(runModes)("runTools budget (%s)", (mode) => {
  it("should stop with reason budget before the step that would pass maxCostUsd, never after it", async () => {
    const maxCostUsd = 0.004;
    const error = await runErrorIn(mode, { model: looping(), messages: ask, tools: [lookup], budget: { maxCostUsd } });
    expect(error.reason).toBe("budget");
    expect(error.message).toMatch(/before step \d+.*budget\.maxCostUsd/);
    const spent = error.steps.reduce((sum, step) => sum + step.usage.costUsd!, 0);
    expect(spent).toBeLessThanOrEqual(maxCostUsd);
    expect(error.steps.length).toBeGreaterThan(0);
    expect(error.steps.length).toBeLessThan(8);
  });

  it("should stop before the step that would pass maxTokens", async () => {
    const error = await runErrorIn(mode, {
      model: looping(),
      messages: ask,
      tools: [lookup],
      budget: { maxTokens: 3000 },
    });
    expect(error.reason).toBe("budget");
    const used = error.steps.reduce((sum, step) => sum + step.usage.totalTokens, 0);
    expect(used).toBeLessThanOrEqual(3000);
  });

  it("should stop before the first step when the call's maxTokens alone would pass it", async () => {
    const error = await runErrorIn(mode, {
      model: looping(),
      messages: ask,
      tools: [lookup],
      parameters: { maxTokens: 5000 },
      budget: { maxTokens: 4000 },
    });
    expect(error.reason).toBe("budget");
    expect(error.steps).toEqual([]);
  });

  it("should sum the steps' costUsd into the run's usage when the run fits", async () => {
    const model = new ScriptedChatModel(
      [toolCallStep("lookup", { id: "1" }, usage(100)), textStep("done", usage(700))],
      {
        pricing,
      },
    );
    const { run } = await runIn(mode, { model, messages: ask, tools: [lookup], budget: { maxCostUsd: 1 } });
    expect(run.text).toBe("done");
    expect(run.usage.costUsd).toBeCloseTo((800 * 1 + 100 * 4) / 1e6, 12);
  });
});

describe("runTools budget options", () => {
  it("should refuse a cost budget on a model without pricing, naming the option to set", async () => {
    const error = await runErrorIn("runTools", {
      model: new ScriptedChatModel([textStep("x")]),
      messages: ask,
      tools: [],
      budget: { maxCostUsd: 1 },
    }).catch((caught: unknown) => caught as Error);
    expect(String((error as Error).message)).toMatch(/pricing: \{ inputPerMTok, outputPerMTok \}/);
  });
});
