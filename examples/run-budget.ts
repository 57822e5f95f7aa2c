/**
 * A run with a budget: an agent that keeps asking for more searches is stopped before the step that
 * would spend past `budget.maxCostUsd` — not after it. The scripted model stands in for a provider
 * here, priced like gpt-4o-mini (`pricing`), and reports the usage a provider would; every step's
 * `usage.costUsd` and the run's sum come from that price.
 */
import { defineTool, RunError, runTools } from "keelson";
import { ScriptedChatModel, toolCallStep } from "keelson/testing";
import { z } from "zod";

const search = defineTool({
  name: "search",
  description: "Search the incident log.",
  inputSchema: z.object({ query: z.string() }),
  execute: ({ query }) =>
    `3 entries match "${query}" (each about 2,000 words of log lines). ${"log line ".repeat(900)}`,
});

// A model that never stops searching: each step costs more than the last, as the transcript grows.
const usage = (inputTokens: number) => ({ inputTokens, outputTokens: 40, totalTokens: inputTokens + 40 });
const model = new ScriptedChatModel(
  Array.from({ length: 10 }, (_, step) =>
    toolCallStep("search", { query: `auth-api ${step}` }, { usage: usage(300 + step * 2500) }),
  ),
  { pricing: { inputPerMTok: 0.15, outputPerMTok: 0.6, cachedInputPerMTok: 0.075 } },
);

try {
  await runTools({
    model,
    messages: [{ role: "user", content: "Why is auth-api down?" }],
    tools: [search],
    budget: { maxCostUsd: 0.002 },
  });
  throw new Error("expected the budget to stop the run");
} catch (error) {
  if (!RunError.isInstance(error) || error.reason !== "budget") throw error;
  const spent = error.steps.reduce((sum, step) => sum + (step.usage.costUsd ?? 0), 0);
  console.log(`stopped after ${error.steps.length} steps, $${spent.toFixed(6)} spent: ${error.message}`);
  if (spent > 0.002) throw new Error("the run overspent its budget");
}
