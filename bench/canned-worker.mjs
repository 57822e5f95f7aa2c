// One process for `npm run bench:instructions`: `node bench/canned-worker.mjs <raw|keelson> <provider> <kind> <path>`.
// The benchmark's work (bench/work/*), but every response replayed from memory (replay-fetch.mjs):
// no socket is read in the measured part, so an instruction count of the process depends on the code alone.
// Warms up like the timed worker, forces a full GC (so no major GC falls in one run and not the
// other), then makes BENCH_CALLS more calls (0 for the baseline run it is compared against).
import process from "node:process";
import { replayFetch } from "./replay-fetch.mjs";

const [side, provider, kind, path] = process.argv.slice(2);
const warmup = Number(process.env.BENCH_WARMUP ?? 50);
const calls = Number(process.env.BENCH_CALLS ?? 200);

replayFetch();

const { setup } = await import(`./work/${side}-${provider}.mjs`);
const run = setup({ baseURL: `http://127.0.0.1:${process.env.BENCH_PORT}`, forced: path === "forced", path })[kind];
for (let i = 0; i <= warmup; i++) await run();
globalThis.gc();
for (let i = 0; i < calls; i++) await run();
