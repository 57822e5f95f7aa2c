// One process of `npm run bench:concurrency`: `node bench/concurrency-worker.mjs <raw|keelson> <provider> <streams>`.
// Opens <streams> streams at once against the paced loopback server (each a model's reply: text
// chunks some milliseconds apart, then a tool call), reads each to its end, and prints one JSON line:
// the wall time of the whole batch, the process's CPU time over it, its peak RSS and the event
// loop's delay (p50, p99) while the streams ran. A smaller batch warms the process up first.
import process from "node:process";
import { monitorEventLoopDelay, performance } from "node:perf_hooks";
import { toolArguments } from "./fixtures.mjs";

const [side, provider, count] = process.argv.slice(2);
const streams = Number(count);
const { setup } = await import(`./work/${side}-${provider}.mjs`);
const { stream } = setup({ baseURL: `http://127.0.0.1:${process.env.BENCH_PORT}`, forced: false, path: "native" });

async function batch(size) {
  const results = await Promise.all(Array.from({ length: size }, () => stream()));
  // A sanity check, not a measurement: every stream must really end in the tool call.
  for (const { args } of results) {
    if (args?.city !== toolArguments.city)
      throw new Error(`${side} ${provider}: unexpected arguments ${JSON.stringify(args)}`);
  }
}

await batch(Math.min(50, streams));
const delay = monitorEventLoopDelay({ resolution: 5 });
delay.enable();
const cpuBefore = process.cpuUsage();
const start = performance.now();
await batch(streams);
const wallMs = performance.now() - start;
const cpu = process.cpuUsage(cpuBefore);
delay.disable();
process.stdout.write(
  `${JSON.stringify({
    wallMs,
    cpuMs: (cpu.user + cpu.system) / 1000,
    peakRssBytes: process.resourceUsage().maxRSS * 1024,
    loopDelayP50Ms: delay.percentile(50) / 1e6,
    loopDelayP99Ms: delay.percentile(99) / 1e6,
  })}\n`,
);
