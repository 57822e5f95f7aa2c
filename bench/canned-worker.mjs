// One process for `npm run bench:instructions`: `node bench/canned-worker.mjs <raw|keelson> <provider> <kind> <path>`.
// The benchmark's work (bench/work/*). In the replayed mode every response is replayed from memory
// (replay-fetch.mjs): no socket is read in the measured part, so an instruction count of the process
// depends on the code alone. With BENCH_REAL_PATH=1 the requests go to the loopback server for real
// (sockets, HTTP parsing, the SDK's own fetch), as a user's process would send them.
// Warms up like the timed worker, forces a full GC (so no major GC falls in one run and not the
// other), then makes BENCH_CALLS more calls (0 for the baseline run it is compared against).
import process from "node:process";
import { replayFetch } from "./replay-fetch.mjs";

const [side, provider, kind, path] = process.argv.slice(2);
const warmup = Number(process.env.BENCH_WARMUP ?? 50);
const calls = Number(process.env.BENCH_CALLS ?? 200);

if (process.env.BENCH_REAL_PATH !== "1") replayFetch();

const { setup } = await import(`./work/${side}-${provider}.mjs`);
const run = setup({ baseURL: `http://127.0.0.1:${process.env.BENCH_PORT}`, forced: path === "forced", path })[kind];
for (let i = 0; i <= warmup; i++) await run();
globalThis.gc();
for (let i = 0; i < calls; i++) await run();
