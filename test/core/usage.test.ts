import { describe, expect, it } from "vitest";
import { z } from "zod";
import { defineTool, runTools } from "../../src/index.js";
import { sumUsage } from "../../src/core/usage.js";
import { ScriptedChatModel, textStep, toolCallStep } from "../../src/testing/index.js";

const cached = { inputTokens: 1200, outputTokens: 20, cachedInputTokens: 1000, cacheWriteInputTokens: 150 };

describe("sumUsage", () => {
  it("should sum every count, the prompt-cache writes included", () => {
    expect(
      sumUsage([
        { ...cached, totalTokens: 1220, reasoningTokens: 4 },
        { inputTokens: 300, outputTokens: 10, totalTokens: 310, cacheWriteInputTokens: 50 },
      ]),
    ).toEqual({
      inputTokens: 1500,
      outputTokens: 30,
      totalTokens: 1530,
      reasoningTokens: 4,
      cachedInputTokens: 1000,
      cacheWriteInputTokens: 200,
    });
  });

  it("should leave out an optional count no report carries", () => {
    expect(sumUsage([{ inputTokens: 1, outputTokens: 2, totalTokens: 3 }])).toEqual({
      inputTokens: 1,
      outputTokens: 2,
      totalTokens: 3,
    });
  });
});

describe("usage of a call and of a tool loop", () => {
  const lookup = defineTool({ name: "lookup_incident", inputSchema: z.object({ incident_id: z.string() }) });

  it("should keep the cache writes of every attempt of a re-asked call", async () => {
    // The first reply ignores the forced tool, so the call is re-asked: both attempts were paid for.
    const model = new ScriptedChatModel([
      textStep("I think it is fine.", { usage: cached }),
      toolCallStep("lookup_incident", { incident_id: "INC-1" }, { usage: { ...cached, cacheWriteInputTokens: 0 } }),
    ]);
    const output = await model.create({
      messages: [{ role: "user", content: "Look up INC-1." }],
      tools: [lookup],
      toolChoice: "required",
    });
    expect(output.meta.attempts).toHaveLength(2);
    expect(output.usage).toMatchObject({ inputTokens: 2400, cachedInputTokens: 2000, cacheWriteInputTokens: 150 });
  });

  it("should keep the cache writes of every step of runTools", async () => {
    const model = new ScriptedChatModel([
      toolCallStep("lookup_incident", { incident_id: "INC-1" }, { usage: cached }),
      textStep("INC-1 is resolved.", { usage: { ...cached, cacheWriteInputTokens: 30 } }),
    ]);
    const result = await runTools({
      model,
      messages: [{ role: "user", content: "Look up INC-1." }],
      tools: [{ ...lookup, execute: () => "resolved" }],
    });
    expect(result.usage).toMatchObject({ inputTokens: 2400, cachedInputTokens: 2000, cacheWriteInputTokens: 180 });
  });
});
