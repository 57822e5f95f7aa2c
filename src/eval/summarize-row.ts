import type { RepairKind, ToolChoiceRung } from "../core/output.js";
import type { EvalModelId } from "./eval-model.js";
import type { EvalCaseResult, EvalRow } from "./eval-report.js";

/** The row of one model under one profile, from its results (in case order, then run). */
export function summarizeRow(model: EvalModelId, profile: string, results: EvalCaseResult[]): EvalRow {
  const cases = results.length;
  const successes = results.filter((result) => result.ok).length;
  const latencies = results.map((result) => result.latencyMs).sort((a, b) => a - b);
  const repairs: Partial<Record<RepairKind, number>> = {};
  const rungs: Partial<Record<ToolChoiceRung, number>> = {};
  for (const result of results) {
    for (const kind of result.repairs) repairs[kind] = (repairs[kind] ?? 0) + 1;
    if (result.rung !== undefined) rungs[result.rung] = (rungs[result.rung] ?? 0) + 1;
  }
  const perCase = (count: number) => (cases === 0 ? 0 : round(count / cases, 3));
  return {
    model,
    profile,
    cases,
    successes,
    successRate: perCase(successes),
    firstTrySuccessRate: perCase(results.filter((result) => result.firstTry).length),
    repairsPerCase: Object.fromEntries(Object.entries(repairs).map(([kind, count]) => [kind, perCase(count)])),
    attempts: perCase(results.reduce((sum, result) => sum + result.attempts, 0)),
    latencyMs: {
      p50: percentile(latencies, 0.5),
      p95: percentile(latencies, 0.95),
      mean: cases === 0 ? 0 : round(latencies.reduce((sum, value) => sum + value, 0) / cases, 1),
    },
    usage: {
      inputTokens: results.reduce((sum, result) => sum + result.usage.inputTokens, 0),
      outputTokens: results.reduce((sum, result) => sum + result.usage.outputTokens, 0),
    },
    rungs,
    restraint: {
      cases: results.filter((result) => result.restraint).length,
      toolCalls: results.filter((result) => result.restraint && calledATool(result)).length,
    },
    failures: results.flatMap((result) => (result.failure ? [result.failure] : [])),
    results,
  };
}

/** The failures of a reply that did call a tool, one keelson could not use. */
const toolCallFailures = new Set(["invalid-args", "unknown-tool", "tool-choice-violation", "parallel-calls"]);

function calledATool(result: EvalCaseResult): boolean {
  return result.toolCalls.length > 0 || toolCallFailures.has(result.failure?.kind ?? "");
}

/** The nearest-rank percentile of sorted values (0 when there are none). */
export function percentile(sorted: readonly number[], p: number): number {
  if (sorted.length === 0) return 0;
  return round(sorted[Math.min(sorted.length - 1, Math.max(0, Math.ceil(p * sorted.length) - 1))]!, 1);
}

export function round(value: number, digits: number): number {
  const scale = 10 ** digits;
  return Math.round(value * scale) / scale;
}
