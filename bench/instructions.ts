import { fileURLToPath } from "node:url";
import { countInstructions, hasValgrind, type InstructionCount } from "./cachegrind.js";
import { readConfig, selectedCallCases } from "./config.js";
import { startFakeServer } from "./fake-server-process.js";
import type { Side } from "./measure.js";

// `npm run bench:instructions`: the instructions one call (or stream) costs, keelson against the raw
// SDK, counted by cachegrind. The count repeats to about a thousandth from run to run, where timed
// ratios on a shared 2-core machine move by several per cent: it tells whether a change made the
// work cheaper. Two modes:
// - replayed (the default): every response replayed from memory (bench/replay-fetch.mjs), no socket
//   read; the count is the code's alone, for finding where instructions go. Per call: a run of
//   BENCH_ITERATIONS calls less a run of none, after the same warm-up.
// - real path (BENCH_REAL_PATH=1): the requests go to the loopback server (its own process, not
//   counted) through each SDK's own fetch, as a user's process sends them. Per call: a run of 400
//   calls less a run of 100 (streams: 40 less 10), after the same warm-up; a stream carries
//   BENCH_TEXT_CHUNKS (default 50 here) content chunks and a tool call. This is the measure of the
//   per-call and per-stream targets (docs/performance.md).
// Both run node with --predictable and a fixed semi-space (bench/cachegrind.ts), so garbage
// collection falls the same way each run. Needs valgrind; takes about 30 s per case and side on 2
// cores (the real path longer). BENCH_CASES, BENCH_PROVIDERS, BENCH_WARMUP and BENCH_LISTENERS
// apply as for `npm run bench`. The cases "<provider> import <import|construct>" count one cold
// import (and building one client or model) in a fresh process, less the same process importing
// nothing (bench/import-worker.mjs).

const realPath = process.env.BENCH_REAL_PATH === "1";
// Set before the server starts: it and the workers read it from the environment.
if (realPath) process.env.BENCH_TEXT_CHUNKS ??= "50";
const log = (message: string) => process.stderr.write(`${message}\n`);
const config = readConfig();
if (!(await hasValgrind())) {
  log("valgrind is not installed here (Debian: apt-get install valgrind): nothing to count.");
  process.exit(0);
}

const worker = fileURLToPath(new URL("./canned-worker.mjs", import.meta.url));
const importWorker = fileURLToPath(new URL("./import-worker.mjs", import.meta.url));
const casePattern = new RegExp(config.cases);
const importCases = config.providers
  .flatMap((provider) => (["import", "construct"] as const).map((mode) => ({ provider, mode })))
  .filter(({ provider, mode }) => casePattern.test(`${provider} import ${mode}`));
const server = await startFakeServer();
const rows: { name: string; perCall: Record<Side, InstructionCount> }[] = [];
try {
  for (const { provider, kind, path, name } of selectedCallCases(config)) {
    log(name);
    // How many calls each of the two runs makes: the difference, divided by theirs, is one call.
    const [fewer, more] = !realPath ? [0, config.iterations] : kind === "stream" ? [10, 40] : [100, 400];
    const perCall = {} as Record<Side, InstructionCount>;
    for (const side of ["raw", "keelson"] satisfies Side[]) {
      const env = {
        BENCH_PORT: String(server.port),
        BENCH_WARMUP: String(config.warmup),
        BENCH_LISTENERS: config.listeners,
        ...(realPath ? { BENCH_REAL_PATH: "1" } : {}),
      };
      const args = [side, provider, kind, path];
      // The same process with fewer calls, run alongside: the difference is the calls between them.
      const [base, full] = await Promise.all([
        countInstructions(worker, args, { ...env, BENCH_CALLS: String(fewer) }),
        countInstructions(worker, args, { ...env, BENCH_CALLS: String(more) }),
      ]);
      const per = (key: keyof InstructionCount) => (full[key] - base[key]) / (more - fewer);
      perCall[side] = {
        executed: per("executed"),
        compiling: per("compiling"),
        collecting: per("collecting"),
        allocating: per("allocating"),
      };
    }
    rows.push({ name, perCall });
  }
  for (const { provider, mode } of importCases) {
    const name = `${provider} import ${mode}`;
    log(name);
    const count = (side: Side, counted: string) => countInstructions(importWorker, [side, provider, counted], {});
    const [base, raw, keelson] = await Promise.all([count("raw", "none"), count("raw", mode), count("keelson", mode)]);
    const less = (full: InstructionCount): InstructionCount => ({
      executed: full.executed - base.executed,
      compiling: full.compiling - base.compiling,
      collecting: full.collecting - base.collecting,
      allocating: full.allocating - base.allocating,
    });
    rows.push({ name, perCall: { raw: less(raw), keelson: less(keelson) } });
  }
} finally {
  server.stop();
}

const thousands = (value: number) => `${Math.round(value / 1000)}k`;
const total = (count: InstructionCount) => count.executed + count.compiling + count.collecting + count.allocating;
const lines = [
  (realPath
    ? `Instructions per call or stream on the real loopback path (400 less 100 calls, 40 less 10 streams of ${process.env.BENCH_TEXT_CHUNKS} content chunks, after ${config.warmup} warm-up; `
    : `Instructions per call or stream (${config.iterations} counted after ${config.warmup} warm-up, replayed responses; `) +
    "the import rows: per cold process, less one that imports nothing, × of all four columns' sum; " +
    "executed = everything but TurboFan compiling, GC and glibc's malloc, which the other columns show):",
  "",
  "| case | raw executed | keelson executed | × | raw compiling | keelson compiling | raw GC | keelson GC | raw malloc | keelson malloc |",
  "| --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: |",
  ...rows.map(({ name, perCall: { raw, keelson } }) => {
    const cells = [
      name,
      thousands(raw.executed),
      thousands(keelson.executed),
      // An import row's × is of everything the process ran: the SDK's first load compiles (Node's CJS lexer) on both sides.
      `${(name.includes(" import ") ? total(keelson) / total(raw) : keelson.executed / raw.executed).toFixed(3)}×`,
    ];
    cells.push(
      thousands(raw.compiling),
      thousands(keelson.compiling),
      thousands(raw.collecting),
      thousands(keelson.collecting),
    );
    cells.push(thousands(raw.allocating), thousands(keelson.allocating));
    return `| ${cells.join(" | ")} |`;
  }),
  "",
  JSON.stringify({
    date: new Date().toISOString(),
    node: process.versions.node,
    mode: realPath ? "real-path" : "replayed",
    iterations: config.iterations,
    warmup: config.warmup,
    rows,
  }),
];
process.stdout.write(`${lines.join("\n")}\n`);
