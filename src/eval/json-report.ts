import type { EvalReport } from "./eval-report.js";

/** One case run as the seed's benchmark lists it. */
export interface SeedCaseEntry {
  case: string;
  model: string;
  profile: string;
  run: number;
  status: "success" | "error";
  latency_ms: number;
  tool_calls: number;
  content_length: number;
  error?: string;
}

/**
 * The report as JSON: keelson's rows and recommendations, and the seed benchmark's totals over
 * every run (`total_cases`, `success`, `error`, `success_rate` as "x/y (z%)", `avg_latency_ms`,
 * `cases[]`).
 */
export function toJSONReport(report: EvalReport): EvalReport & {
  total_cases: number;
  success: number;
  error: number;
  success_rate: string;
  avg_latency_ms: number;
  cases: SeedCaseEntry[];
} {
  const cases: SeedCaseEntry[] = report.rows.flatMap((row) =>
    row.results.map((result) => ({
      case: result.case,
      model: `${row.model.providerId}:${row.model.modelId}`,
      profile: row.profile,
      run: result.run,
      status: result.ok ? "success" : "error",
      latency_ms: result.latencyMs,
      tool_calls: result.toolCalls.length,
      content_length: result.text.length,
      ...(result.failure ? { error: `${result.failure.kind}: ${result.failure.reason}` } : {}),
    })),
  );
  const success = cases.filter((entry) => entry.status === "success").length;
  const total = cases.length;
  const percent = total === 0 ? 0 : Math.round((success / total) * 1000) / 10;
  const latency = cases.reduce((sum, entry) => sum + entry.latency_ms, 0);
  return {
    ...report,
    total_cases: total,
    success,
    error: total - success,
    success_rate: `${success}/${total} (${percent}%)`,
    avg_latency_ms: total === 0 ? 0 : Math.round((latency / total) * 10) / 10,
    cases,
  };
}
