import { fileURLToPath } from "node:url";
import { readConfig, type Provider } from "./config.js";
import { startFakeServer } from "./fake-server-process.js";
import type { Side } from "./measure.js";
import { runNode } from "./spawn-node.js";
import { median } from "./stats.js";

// `npm run bench:concurrency`: 1,000 streams at once, keelson beside the raw SDK in one run, against
// a loopback server paced like a model (BENCH_TEXT_CHUNKS text chunks, default 100, BENCH_PACE_MS
// apart, default 10, then a tool call). Reports the median over BENCH_ROUNDS rounds (default 3, the
// sides' order flipped each round) of the batch's wall time, the process's CPU time, its peak RSS and
// the event loop's delay p99, and keelson ÷ raw. BENCH_STREAMS sets the batch (default 1000),
// BENCH_PROVIDERS the providers. A benchmark, not a test: it never fails on a number.

process.env.BENCH_TEXT_CHUNKS ??= "100";
process.env.BENCH_PACE_MS ??= "10";
const config = readConfig({ ...process.env, BENCH_ROUNDS: process.env.BENCH_ROUNDS ?? "3" });
const streams = Number(process.env.BENCH_STREAMS ?? 1000);
if (!Number.isInteger(streams) || streams < 1 || streams > 100_000) {
  throw new TypeError(
    `BENCH_STREAMS must be an integer from 1 to 100000, got ${JSON.stringify(process.env.BENCH_STREAMS)}.`,
  );
}
const worker = fileURLToPath(new URL("./concurrency-worker.mjs", import.meta.url));
const log = (message: string) => process.stderr.write(`${message}\n`);

interface Sample {
  wallMs: number;
  cpuMs: number;
  peakRssBytes: number;
  loopDelayP50Ms: number;
  loopDelayP99Ms: number;
}

const server = await startFakeServer();
const samples = new Map<Provider, Record<Side, Sample[]>>();
try {
  for (let round = 0; round < config.rounds; round++) {
    for (const provider of config.providers) {
      const sides: Side[] = round % 2 === 0 ? ["raw", "keelson"] : ["keelson", "raw"];
      for (const side of sides) {
        log(`round ${round + 1}/${config.rounds}: ${provider} ${side}, ${streams} streams`);
        const { result } = await runNode(worker, [side, provider, String(streams)], {
          BENCH_PORT: String(server.port),
        });
        const record = samples.get(provider) ?? { raw: [], keelson: [] };
        record[side].push(result as Sample);
        samples.set(provider, record);
      }
    }
  }
} finally {
  server.stop();
}

const fixed = (value: number, digits = 0) => value.toFixed(digits);
const ratio = (keelson: number, raw: number) => `${(keelson / raw).toFixed(3)}×`;
const lines = [
  `${streams} concurrent streams of ${process.env.BENCH_TEXT_CHUNKS} chunks ${process.env.BENCH_PACE_MS} ms apart and a tool call, ` +
    `median of ${config.rounds} rounds (targets: wall and CPU ≤ 1.10×, peak RSS ≤ 1.15×):`,
  "",
  "| provider | wall raw (ms) | wall keelson | × | CPU raw (ms) | CPU keelson | × | peak RSS raw (MB) | keelson | × | loop delay p99 raw (ms) | keelson |",
  "| --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: |",
];
for (const [provider, { raw, keelson }] of samples) {
  const of = (list: Sample[], key: keyof Sample) => median(list.map((sample) => sample[key]));
  const cells: string[] = [provider];
  for (const key of ["wallMs", "cpuMs"] as const) {
    cells.push(fixed(of(raw, key)), fixed(of(keelson, key)), ratio(of(keelson, key), of(raw, key)));
  }
  const mb = (bytes: number) => fixed(bytes / 2 ** 20, 1);
  cells.push(mb(of(raw, "peakRssBytes")), mb(of(keelson, "peakRssBytes")));
  cells.push(ratio(of(keelson, "peakRssBytes"), of(raw, "peakRssBytes")));
  cells.push(fixed(of(raw, "loopDelayP99Ms"), 1), fixed(of(keelson, "loopDelayP99Ms"), 1));
  lines.push(`| ${cells.join(" | ")} |`);
}
lines.push(
  "",
  JSON.stringify({
    date: new Date().toISOString(),
    node: process.versions.node,
    streams,
    samples: Object.fromEntries(samples),
  }),
);
process.stdout.write(`${lines.join("\n")}\n`);
