import type { EvalModelId } from "./eval-model.js";
import type { EvalReport } from "./eval-report.js";
import { escapeHTML } from "./escape-html.js";
import { percent, tableColumns } from "./table-columns.js";

const nameOf = (model: EvalModelId) => `${model.providerId}:${model.modelId}`;

/** The recommendation per model, as the report's headline: the profile and the options that select it, or none. */
export function recommendationHTML(report: EvalReport): string {
  const items = [
    ...report.recommendations.map(
      (entry) =>
        `<li><strong>${escapeHTML(nameOf(entry.model))}</strong> → <strong class="profile">${escapeHTML(entry.profile)}</strong> ` +
        `(${percent(entry.successRate)} success)<br><code>${escapeHTML(JSON.stringify(entry.options))}</code></li>`,
    ),
    ...report.noneWorked.map(
      (model) =>
        `<li class="none"><strong>${escapeHTML(nameOf(model))}</strong> → none: no profile succeeded on any case</li>`,
    ),
  ];
  return `<section class="recommendation" id="recommendation"><h2>Recommended</h2><ul>${items.join("")}</ul>
<p class="rule">Highest success rate; equal rates go to the higher rung (native, response-format, prompt). Latency decides nothing.</p></section>`;
}

/** Every model × profile as a row of a real table, the recommended rows marked. */
export function tableHTML(report: EvalReport): string {
  const recommended = new Set(report.recommendations.map((entry) => `${nameOf(entry.model)}\u0000${entry.profile}`));
  const header = tableColumns.map((column) => column.title);
  const repairsColumn = header.indexOf("repairs/case");
  const rows = report.rows.map((row) => {
    const marked = recommended.has(`${nameOf(row.model)}\u0000${row.profile}`);
    const body = tableColumns
      .map((column) => column.cell(row))
      .map((cell, column) =>
        column < 2
          ? `<th scope="row">${escapeHTML(cell)}</th>`
          : `<td${column === repairsColumn ? ' class="repairs"' : ""}>${escapeHTML(cell)}</td>`,
      )
      .join("");
    return `<tr${marked ? ' class="recommended"' : ""}>${body}</tr>`;
  });
  return `<table id="table"><thead><tr>${header.map((title) => `<th scope="col">${escapeHTML(title)}</th>`).join("")}</tr></thead>
<tbody>${rows.join("\n")}</tbody></table>`;
}
