import { existsSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { pathToFileURL } from "node:url";
import { describe, expect, it } from "vitest";
import { evaluate, renderHTMLReport } from "../../src/eval/index.js";

const chromiumPath = "/usr/bin/chromium";
const haveChromium = existsSync(chromiumPath);
if (!haveChromium)
  console.warn(`Skipping the HTML report's Chromium test: no ${chromiumPath} (apt-get install chromium).`);

describe.skipIf(!haveChromium)("the HTML report in headless Chromium", () => {
  it("should show the recommendation, a real table, its three charts with no label clipped and the failing cases, with no error and no request", async () => {
    const { chromium } = await import("playwright-core");
    const report = await evaluate({
      cases: "examples/eval/cases",
      models: ["ollama:qwen3:8b"],
      replay: "examples/eval/cassettes/cases",
    });
    const dir = mkdtempSync(join(tmpdir(), "keelson-eval-html-"));
    const file = join(dir, "report.html");
    writeFileSync(file, await renderHTMLReport(report));
    const context = await chromium.launchPersistentContext(join(dir, "profile"), {
      executablePath: chromiumPath,
      headless: true,
      args: [
        "--headless",
        "--no-sandbox",
        "--disable-gpu",
        "--disable-quic",
        "--no-first-run",
        "--disable-background-networking",
        "--disable-component-update",
        "--disable-sync",
      ],
      timeout: 30_000,
    });
    try {
      const page = await context.newPage();
      const problems: string[] = [];
      const requests: string[] = [];
      page.on("console", (message) => {
        if (message.type() === "error" || message.type() === "warning") problems.push(message.text());
      });
      page.on("pageerror", (error) => problems.push(error.message));
      page.on("request", (request) => requests.push(request.url()));
      await page.goto(pathToFileURL(file).href, { waitUntil: "load", timeout: 15_000 });

      const charts = await page.$$eval("figure[data-chart]", (figures) =>
        figures.map((figure) => {
          const svg = figure.querySelector("svg");
          const box = svg?.getBoundingClientRect();
          const shapes = [...(svg?.querySelectorAll("path, rect") ?? [])].filter((shape) => {
            const size = (shape as unknown as { getBBox(): { width: number; height: number } }).getBBox();
            return size.width > 0 && size.height > 0;
          });
          return {
            chart: figure.getAttribute("data-chart"),
            width: Math.round(box?.width ?? 0),
            height: Math.round(box?.height ?? 0),
            shapes: shapes.length,
            labels: svg?.textContent ?? "",
          };
        }),
      );
      expect(charts.map((chart) => chart.chart)).toEqual(["success-rate", "latency", "repairs"]);
      // The marks each chart must have drawn (axes and grid lines have no area): 3 rows × 2 bars,
      // 3 boxes, 5 non-zero repair segments (missing-id on every row, two more kinds on prompt).
      const marks = { "success-rate": 6, latency: 3, repairs: 5 };
      for (const chart of charts) {
        expect(chart.width).toBe(1000);
        expect(chart.height).toBeGreaterThan(200);
        expect(chart.shapes).toBeGreaterThanOrEqual(marks[chart.chart as keyof typeof marks]);
        expect(chart.labels).toContain("ollama:qwen3:8b · response-format");
      }
      expect(charts[0]!.labels).toContain("91.7%");
      expect(charts[2]!.labels).toContain("stripped-wrapper");

      // Every text of every chart lies inside its SVG: no bar label or axis label clipped.
      const clipped = await page.$$eval("figure[data-chart] svg", (svgs) =>
        svgs.flatMap((svg) => {
          const box = svg.getBoundingClientRect();
          return [...svg.querySelectorAll("text")]
            .filter((text) => {
              const size = text.getBoundingClientRect();
              return (
                size.width > 0 &&
                (size.left < box.left - 0.5 ||
                  size.right > box.right + 0.5 ||
                  size.top < box.top - 0.5 ||
                  size.bottom > box.bottom + 0.5)
              );
            })
            .map((text) => text.textContent);
        }),
      );
      expect(clipped).toEqual([]);

      // The table is a table: a header, one row per model × profile, the recommended row marked.
      const header = await page.$$eval("table#table thead th", (cells) => cells.map((cell) => cell.textContent));
      expect(header.slice(0, 4)).toEqual(["model", "profile", "cases", "success"]);
      const rows = await page.$$eval("table#table tbody tr", (trs) =>
        trs.map((tr) => ({
          cells: [...tr.children].map((cell) => cell.textContent),
          recommended: tr.classList.contains("recommended"),
        })),
      );
      expect(rows.map((row) => [row.cells[1], row.cells[3], row.recommended])).toEqual([
        ["native", "12 (100.0%)", true],
        ["response-format", "12 (100.0%)", false],
        ["prompt", "11 (91.7%)", false],
      ]);
      // The recommendation stands out above the table and the charts, in its own box.
      const recommendation = page.locator("section.recommendation");
      await expect(recommendation.innerText()).resolves.toMatch(/ollama:qwen3:8b → native \(100\.0% success\)/);
      const [boxTop, tableTop, chartTop] = await Promise.all(
        ["section.recommendation", "table#table", "figure[data-chart]"].map((selector) =>
          page
            .locator(selector)
            .first()
            .evaluate((element) => element.getBoundingClientRect().top),
        ),
      );
      expect(boxTop).toBeLessThan(tableTop!);
      expect(tableTop).toBeLessThan(chartTop!);
      const body = await page.locator("body").innerText();
      expect(body).not.toContain("see the JSON or HTML report");

      const failure = page.locator('section.failure[data-case="04-choose-docs"]');
      await expect(failure.count()).resolves.toBe(1);
      const failureText = await failure.innerText();
      expect(failureText).toContain("expected a call of search_docs");
      expect(failureText).toContain("How do the API rate limits work? Check the docs.");
      expect(problems).toEqual([]);
      expect(requests).toEqual([pathToFileURL(file).href]);
    } finally {
      await context.close();
      rmSync(dir, { recursive: true, force: true });
    }
  }, 60_000);
});
