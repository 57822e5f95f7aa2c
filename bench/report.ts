import type { BenchConfig, Provider } from "./config.js";
import type { OverheadSample, RunToolsSample, SegmentsSample } from "./measure.js";
import type { CallCase, ImportCase, Target } from "./summarize.js";

export interface BenchResults {
  date: string;
  node: string;
  cpus: number;
  config: BenchConfig;
  calls: CallCase[];
  imports: ImportCase[];
  /** keelson's own time on a canned adapter, without network or SDK (median of the processes). */
  overhead: OverheadSample | undefined;
  /** The agent loop's own cost on a canned adapter (median of the processes). */
  runTools: RunToolsSample | undefined;
  /** A native call on the loopback split where both sides pass, per provider (medians of the rounds). */
  segments: { provider: Provider; raw: SegmentsSample; keelson: SegmentsSample }[];
  targets: Target[];
  warnings: string[];
}

const segmentNames = ["beforeSDK", "sdkToRequest", "wire", "sdkFromResponse", "afterSDK", "total"] as const;
const ms = (value: number) => value.toFixed(3);
const us = (value: number) => value.toFixed(0);
const mb = (value: number) => (value / 1024 / 1024).toFixed(1);
const times = (value: number) => `${value.toFixed(2)}×`;
const range = ([low, high]: [number, number]) => `${low.toFixed(2)}–${high.toFixed(2)}`;

/** The results as markdown: medians of every case side by side, then the targets. */
export function markdownReport(results: BenchResults): string {
  const lines = [
    `keelson vs raw SDK — medians of ${results.config.rounds} rounds × ${results.config.iterations} requests ` +
      `(cold imports: ${results.config.importRounds} processes); keelson listeners: ${results.config.listeners}; ` +
      "both sides on Node's fetch; " +
      `Node ${results.node}, ${results.cpus} CPUs`,
    "",
    'The × columns divide the medians; the "rounds" columns give the lowest and highest ratio of a single round,',
    "the noise a ratio carries on this machine.",
    "",
    "| case | raw p50 ms | keelson p50 ms | × | rounds | raw mean ms | keelson mean ms | × | raw CPU µs | keelson CPU µs | × | raw peak RSS MB | keelson peak RSS MB | × |",
    "| --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: |",
  ];
  for (const c of results.calls) {
    lines.push(
      `| ${c.provider} ${c.kind === "call" ? "call" : "stream"} (${c.path}) | ${ms(c.raw.p50Ms)} | ${ms(c.keelson.p50Ms)} | ${times(c.ratio.p50Ms)} | ${range(c.ratioRange.p50Ms)} | ` +
        `${ms(c.raw.meanMs)} | ${ms(c.keelson.meanMs)} | ${times(c.ratio.meanMs)} | ${us(c.raw.cpuPerCallUs)} | ${us(c.keelson.cpuPerCallUs)} | ${times(c.ratio.cpuPerCallUs)} | ` +
        `${mb(c.raw.peakRssBytes)} | ${mb(c.keelson.peakRssBytes)} | ${times(c.ratio.peakRssBytes)} |`,
    );
  }
  lines.push(
    "",
    "| cold import | raw SDK ms | keelson ms | × | rounds | raw peak RSS MB | keelson peak RSS MB | × |",
    "| --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: |",
  );
  for (const c of results.imports) {
    const what = c.mode === "import" ? "import only" : "import + construct";
    lines.push(
      `| ${c.provider} ${what} | ${ms(c.raw.ms)} | ${ms(c.keelson.ms)} | ${times(c.ratio.ms)} | ${range(c.ratioRange.ms)} | ${mb(c.raw.peakRssBytes)} | ${mb(c.keelson.peakRssBytes)} | ${times(c.ratio.peakRssBytes)} |`,
    );
  }
  if (results.overhead) {
    lines.push(
      "",
      `keelson's own time on a canned adapter (no network, no SDK), in a tight loop: ${results.overhead.callUs.toFixed(1)} µs per call, ` +
        `${results.overhead.streamUs.toFixed(1)} µs per stream of ~210 chunks. Through a router (createRouter, least-busy ` +
        `over two such members): ${results.overhead.routerCallUs.toFixed(1)} µs per call, ` +
        `${results.overhead.routerStreamUs.toFixed(1)} µs per stream — the router's own cost is the difference.`,
    );
  }
  if (results.runTools) {
    const { runToolsUs, handLoopUs, perStepUs } = results.runTools;
    lines.push(
      "",
      `runTools on a canned adapter, a 5-step run (CPU time): ${runToolsUs.toFixed(1)} µs, against ${handLoopUs.toFixed(1)} µs ` +
        `for the same loop by hand: ${perStepUs.toFixed(1)} µs per step beyond the model calls.`,
    );
  }
  if (results.segments.length > 0) {
    lines.push(
      "",
      "Where a native call's time goes on the loopback (medians, µs; both sides pass the same four points, so the SDK and wire columns compare like with like):",
      "",
      "| provider | side | before the SDK | SDK, to the request | wire, to the headers | SDK, from the response | after the SDK | total |",
      "| --- | --- | ---: | ---: | ---: | ---: | ---: | ---: |",
    );
    const row = (values: SegmentsSample, signed = false) =>
      segmentNames.map((name) => `${signed && values[name] > 0 ? "+" : ""}${values[name].toFixed(1)}`).join(" | ");
    for (const { provider, raw, keelson } of results.segments) {
      const difference = Object.fromEntries(
        segmentNames.map((name) => [name, keelson[name] - raw[name]]),
      ) as unknown as SegmentsSample;
      lines.push(
        `| ${provider} | raw | ${row(raw)} |`,
        `| ${provider} | keelson | ${row(keelson)} |`,
        `| ${provider} | keelson − raw | ${row(difference, true)} |`,
      );
    }
  }
  lines.push(
    "",
    "The 95% interval is where a ratio may lie given the rounds' noise (a bootstrap over the rounds); a target whose",
    "interval holds its limit is met or missed within that noise.",
    "",
    "| target | measured | 95% interval | limit | met |",
    "| --- | ---: | ---: | ---: | :---: |",
  );
  // Three decimals here, so that a ratio shown as 1.05× is never a miss of ≤ 1.05×.
  for (const t of results.targets) {
    const interval = t.interval ? `${t.interval[0].toFixed(3)}–${t.interval[1].toFixed(3)}` : "–";
    lines.push(`| ${t.name} | ${t.measured.toFixed(3)}× | ${interval} | ≤ ${times(t.limit)} | ${verdict(t)} |`);
  }
  if (results.warnings.length > 0)
    lines.push("", "Worker warnings:", ...results.warnings.map((warning) => `- ${warning}`));
  return lines.join("\n");
}

function verdict(target: Target): string {
  const met = target.met ? "yes" : "**no**";
  return target.withinNoise ? `${met}, within noise` : met;
}

/** One line: every ratio that has a target, and how many targets were met. */
export function summaryLine(results: BenchResults): string {
  const met = results.targets.filter((t) => t.met).length;
  const parts = results.targets.map((t) => {
    const note = t.met
      ? t.withinNoise
        ? " (within noise)"
        : ""
      : t.withinNoise
        ? " (missed, within noise)"
        : " (missed)";
    return `${t.name.replace(", keelson ÷ raw", "")} ${t.measured.toFixed(3)}×${note}`;
  });
  return `Summary: ${met}/${results.targets.length} targets met — ${parts.join("; ")}`;
}
