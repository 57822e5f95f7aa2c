import type { RepairKind } from "../core/output.js";
import type { EvalRow } from "./eval-report.js";

/** A rate (0..1) as a percentage with one decimal. */
export const percent = (rate: number) => `${(rate * 100).toFixed(1)}%`;

/** One column of the report's table: its title and a row's cell, the same in the terminal and the HTML report. */
export interface TableColumn {
  title: string;
  cell(row: EvalRow): string;
}

/** The report's columns, in order: the terminal table and the HTML table both show these. */
export const tableColumns: readonly TableColumn[] = [
  { title: "model", cell: (row) => `${row.model.providerId}:${row.model.modelId}` },
  { title: "profile", cell: (row) => row.profile },
  { title: "cases", cell: (row) => String(row.cases) },
  { title: "success", cell: (row) => `${row.successes} (${percent(row.successRate)})` },
  { title: "first try", cell: (row) => percent(row.firstTrySuccessRate) },
  { title: "attempts", cell: (row) => row.attempts.toFixed(2) },
  { title: "p50 ms", cell: (row) => row.latencyMs.p50.toFixed(1) },
  { title: "p95 ms", cell: (row) => row.latencyMs.p95.toFixed(1) },
  { title: "mean ms", cell: (row) => row.latencyMs.mean.toFixed(1) },
  { title: "warm-up ms", cell: (row) => (row.warmUpMs === undefined ? "-" : row.warmUpMs.toFixed(1)) },
  {
    title: "repairs/case",
    cell: (row) =>
      Object.entries(row.repairsPerCase)
        .map(([kind, count]) => `${kind as RepairKind} ${count}`)
        .join(", ") || "-",
  },
  {
    title: "unwanted calls",
    cell: (row) => (row.restraint.cases === 0 ? "-" : `${row.restraint.toolCalls}/${row.restraint.cases}`),
  },
  { title: "tokens in/out", cell: (row) => `${row.usage.inputTokens}/${row.usage.outputTokens}` },
];
