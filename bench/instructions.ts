import { fileURLToPath } from "node:url";
import { countInstructions, hasValgrind, type InstructionCount } from "./cachegrind.js";
import { readConfig, selectedCallCases } from "./config.js";
import { startFakeServer } from "./fake-server-process.js";
import type { Side } from "./measure.js";

// `npm run bench:instructions`: the instructions one call (or stream) costs, keelson against the raw
// SDK, counted by cachegrind on replayed responses (bench/canned-worker.mjs). The count repeats to
// about a thousandth from run to run, where timed ratios on a shared 2-core machine move by several
// per cent: it tells whether a change made the work cheaper. The timed `npm run bench` stays the
// measure of the targets (it also pays for cache misses, sockets and the other core's work).
// Needs valgrind; takes about 30 s per case and side on 2 cores. BENCH_CASES, BENCH_PROVIDERS,
// BENCH_ITERATIONS (calls counted), BENCH_WARMUP and BENCH_LISTENERS apply as for `npm run bench`.
// The cases "<provider> import <import|construct>" count one cold import (and building one client or
// model) in a fresh process, less the same process importing nothing (bench/import-worker.mjs).

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
    const perCall = {} as Record<Side, InstructionCount>;
    for (const side of ["raw", "keelson"] satisfies Side[]) {
      const env = {
        BENCH_PORT: String(server.port),
        BENCH_WARMUP: String(config.warmup),
        BENCH_LISTENERS: config.listeners,
      };
      const args = [side, provider, kind, path];
      // The same process without the counted calls, run alongside: the difference is the calls.
      const [base, full] = await Promise.all([
        countInstructions(worker, args, { ...env, BENCH_CALLS: "0" }),
        countInstructions(worker, args, { ...env, BENCH_CALLS: String(config.iterations) }),
      ]);
      const per = (key: keyof InstructionCount) => (full[key] - base[key]) / config.iterations;
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
  `Instructions per call or stream (${config.iterations} counted after ${config.warmup} warm-up, replayed responses; ` +
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
    iterations: config.iterations,
    warmup: config.warmup,
    rows,
  }),
];
process.stdout.write(`${lines.join("\n")}\n`);
