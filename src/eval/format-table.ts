import type { EvalReport } from "./eval-report.js";
import { percent, tableColumns } from "./table-columns.js";

/** The report as a plain-text table, the failures under it and the recommendation per model. */
export function formatTable(report: EvalReport, options: { maxFailures?: number | undefined } = {}): string {
  const header = tableColumns.map((column) => column.title);
  const lines = report.rows.map((row) => tableColumns.map((column) => column.cell(row)));
  const widths = header.map((title, column) => Math.max(title.length, ...lines.map((line) => line[column]!.length)));
  const format = (cells: string[]) =>
    cells
      .map((cell, column) => cell.padEnd(widths[column]!))
      .join("  ")
      .trimEnd();
  const out = [format(header), widths.map((width) => "-".repeat(width)).join("  "), ...lines.map(format)];
  const failures = report.rows.flatMap((row) =>
    row.failures.map(
      (failure) =>
        `  ${row.model.providerId}:${row.model.modelId} ${row.profile} ${failure.case}#${failure.run} ${failure.kind}: ${oneLine(failure.reason)}`,
    ),
  );
  if (failures.length > 0) {
    const max = options.maxFailures ?? 20;
    out.push("", `failures (${failures.length}):`, ...failures.slice(0, max));
    if (failures.length > max) out.push(`  … ${failures.length - max} more (see the JSON or HTML report)`);
  }
  if (report.recommendations.length > 0 || report.noneWorked.length > 0) {
    out.push("", "recommended:");
    for (const recommendation of report.recommendations) {
      out.push(
        `  ${recommendation.model.providerId}:${recommendation.model.modelId} → ${recommendation.profile} (${percent(recommendation.successRate)}, p95 ${recommendation.p95LatencyMs.toFixed(1)} ms): ${JSON.stringify(recommendation.options)}`,
      );
    }
  }
  for (const model of report.noneWorked) {
    out.push(`  ${model.providerId}:${model.modelId} → none: no profile succeeded on any case`);
  }
  if (report.stopped) out.push("", `stopped: ${report.measured} of ${report.planned} runs measured`);
  return `${out.join("\n")}\n`;
}

/** Restraint cases that called a tool anyway, of those run ("-" without restraint cases). */
function oneLine(text: string): string {
  const line = text.replace(/\s+/g, " ").trim();
  return line.length > 200 ? `${line.slice(0, 197)}...` : line;
}
