import { countTokens } from "../core/model/count-tokens.js";
import type { ChatModelInput } from "../core/input.js";
import { ChatModel } from "../core/model/chat-model.js";
import type { ChatModelLike } from "../core/model/chat-model-like.js";
import { costOf } from "../core/profiles/model-pricing.js";
import type { RunStep } from "./run-step.js";

/** What a run may spend; it stops (RunError reason `budget`) before a step that would go past it. */
export interface RunBudget {
  /** The most the run's calls may cost together, in USD (needs the model's `profile.pricing`). @default none */
  maxCostUsd?: number;
  /** The most tokens (input and output) the run's calls may use together. @default none */
  maxTokens?: number;
}

/** A `budget` option checked: each limit a non-negative number; a cost limit only on a priced model. */
export function checkRunBudget(budget: unknown, model: ChatModelLike): RunBudget | undefined {
  if (budget === undefined) return undefined;
  if (budget === null || typeof budget !== "object") throw new TypeError("budget must be { maxCostUsd?, maxTokens? }.");
  const { maxCostUsd, maxTokens } = budget as Record<string, unknown>;
  for (const [name, value] of [
    ["maxCostUsd", maxCostUsd],
    ["maxTokens", maxTokens],
  ] as const) {
    if (value !== undefined && !(typeof value === "number" && value >= 0))
      throw new TypeError(`budget.${name} must be a non-negative number, got ${String(value)}.`);
  }
  if (maxCostUsd !== undefined && model.profile?.pricing === undefined) {
    throw new TypeError(
      `budget.maxCostUsd needs the model's pricing, and keelson has none for ${model.providerId} ${model.modelId}: pass pricing: { inputPerMTok, outputPerMTok } when you build the model.`,
    );
  }
  return budget as RunBudget;
}

/**
 * Why the next step would go past the budget, or undefined when it fits: what the run spent so far
 * plus the step's prediction — its input estimated (as the model would send it) and its output as
 * long as the previous step's (on the first step, the call's maxTokens, else the model's).
 */
export async function budgetExceeded(
  budget: RunBudget,
  model: ChatModelLike,
  input: ChatModelInput,
  steps: readonly RunStep[],
): Promise<string | undefined> {
  const inputTokens =
    model instanceof ChatModel
      ? (await countTokens(model, input, () => Promise.resolve(undefined))).inputTokens
      : // A model group (a router) sends to members keelson cannot tell apart here: about 4 characters a token.
        Math.ceil(JSON.stringify(input.messages).length / 4);
  const last = steps.at(-1);
  const maxTokens = input.parameters?.maxTokens ?? model.parameters?.maxTokens ?? model.profile?.maxOutputTokens ?? 0;
  const outputTokens = last === undefined ? maxTokens : last.usage.outputTokens;
  const predicted = { inputTokens, outputTokens, totalTokens: inputTokens + outputTokens };
  const spentTokens = steps.reduce((sum, step) => sum + step.usage.totalTokens, 0);
  if (budget.maxTokens !== undefined && spentTokens + predicted.totalTokens > budget.maxTokens) {
    return `The run stopped before step ${steps.length + 1}: it used ${spentTokens} tokens and the next step would take about ${predicted.totalTokens} more (${inputTokens} in, ${outputTokens} out), past budget.maxTokens (${budget.maxTokens}). Raise the budget, or continue from error.messages.`;
  }
  const pricing = model.profile?.pricing;
  if (budget.maxCostUsd !== undefined && pricing !== undefined) {
    const spent = steps.reduce((sum, step) => sum + (step.usage.costUsd ?? costOf(step.usage, pricing)), 0);
    const next = costOf(predicted, pricing);
    if (spent + next > budget.maxCostUsd) {
      return `The run stopped before step ${steps.length + 1}: it spent $${spent.toFixed(6)} and the next step would cost about $${next.toFixed(6)} more, past budget.maxCostUsd ($${budget.maxCostUsd}). Raise the budget, or continue from error.messages.`;
    }
  }
  return undefined;
}
