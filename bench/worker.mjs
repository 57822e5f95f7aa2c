// One measured process: `node bench/worker.mjs <raw|keelson> <openai|ollama> <call|stream> <native|forced>`.
// Warms up, then times `BENCH_ITERATIONS` sequential requests and prints one JSON line:
// per-request times (ms), CPU per request (µs) and the process's peak RSS (bytes).
import process from "node:process";
import { performance } from "node:perf_hooks";
import { toolArguments } from "./fixtures.mjs";

const [side, provider, kind, path] = process.argv.slice(2);
const iterations = Number(process.env.BENCH_ITERATIONS ?? 200);
const warmup = Number(process.env.BENCH_WARMUP ?? 50);
const baseURL = `http://127.0.0.1:${process.env.BENCH_PORT}`;

const { setup } = await import(`./work/${side}-${provider}.mjs`);
const run = setup({ baseURL, forced: path === "forced", path })[kind];

// A sanity check, not a measurement: both sides must really get the tool call's arguments
// (a stream's work returns { args, text }, a call's work the arguments).
const first = await run();
const args = kind === "stream" ? first.args : first;
if (args?.city !== toolArguments.city)
  throw new Error(`${side} ${provider} ${kind} ${path}: unexpected arguments ${JSON.stringify(args)}`);

for (let i = 0; i < warmup; i++) await run();
const times = [];
const cpuBefore = process.cpuUsage();
for (let i = 0; i < iterations; i++) {
  const start = performance.now();
  await run();
  times.push(performance.now() - start);
}
const cpu = process.cpuUsage(cpuBefore);
process.stdout.write(
  `${JSON.stringify({ times, cpuPerCallUs: (cpu.user + cpu.system) / iterations, peakRssBytes: process.resourceUsage().maxRSS * 1024 })}\n`,
);
