// One process for `npm run bench:instructions`: `node bench/canned-worker.mjs <raw|keelson> <provider> <kind> <path>`.
// The benchmark's work (bench/work/*), but every response replayed from memory: the first request of
// each kind goes to the fake server and is recorded, later ones get the recorded bytes. No socket is
// read in the measured part, so an instruction count of the process depends on the code alone.
// Warms up like the timed worker, forces a full GC (so no major GC falls in one run and not the
// other), then makes BENCH_CALLS more calls (0 for the baseline run it is compared against).
import process from "node:process";

const [side, provider, kind, path] = process.argv.slice(2);
const warmup = Number(process.env.BENCH_WARMUP ?? 50);
const calls = Number(process.env.BENCH_CALLS ?? 200);

const { fetch: networkFetch, Response } = globalThis;
const recorded = new Map();
globalThis.fetch = async (url, init) => {
  const body = typeof init?.body === "string" ? init.body : "";
  const key = `${url} ${body.includes('"stream":true')} ${/"(format|response_format)"/.test(body)}`;
  let reply = recorded.get(key);
  if (!reply) {
    const response = await networkFetch(url, init);
    reply = { status: response.status, headers: [...response.headers], bytes: new Uint8Array(await response.arrayBuffer()) };
    recorded.set(key, reply);
  }
  return new Response(reply.bytes, { status: reply.status, headers: reply.headers });
};

const { setup } = await import(`./work/${side}-${provider}.mjs`);
const run = setup({ baseURL: `http://127.0.0.1:${process.env.BENCH_PORT}`, forced: path === "forced" })[kind];
for (let i = 0; i <= warmup; i++) await run();
globalThis.gc();
for (let i = 0; i < calls; i++) await run();
