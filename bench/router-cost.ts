// The router's own cost, counted in instructions (which this machine's noise does not move): the
// canned-adapter pipeline of bench/overhead-worker.mjs, straight and through createRouter
// (least-busy over two canned members), each run under cachegrind at two loop lengths after the
// same warm-up; the difference divided by the extra calls is one call's count. Run after
// `npm run build`: `npx tsx bench/router-cost.ts` (needs valgrind).
import { fileURLToPath } from "node:url";
import { countInstructions, hasValgrind } from "./cachegrind.js";

const worker = fileURLToPath(new URL("./overhead-worker.mjs", import.meta.url));
const [short, long] = [100, 400];

async function perCall(side: "model" | "router", kind: "call" | "stream"): Promise<number> {
  const count = async (iterations: number) => {
    const { executed } = await countInstructions(worker, [], {
      ...process.env,
      BENCH_OVERHEAD_SIDE: side,
      BENCH_OVERHEAD_KIND: kind,
      BENCH_OVERHEAD_ITERATIONS: String(iterations),
    });
    return executed;
  };
  // meanTime runs iterations / 10 warm-up calls, then the iterations.
  return ((await count(long)) - (await count(short))) / ((long - short) * 1.1);
}

if (!(await hasValgrind())) {
  console.error("valgrind is not installed: apt-get install valgrind");
  process.exit(1);
}
for (const kind of (process.env.ROUTER_COST_KINDS ?? "call,stream").split(",") as ("call" | "stream")[]) {
  const model = await perCall("model", kind);
  const router = await perCall("router", kind);
  const k = (n: number) => `${Math.round(n / 1000)}k`;
  console.log(
    `${kind}: ${k(model)} instructions straight, ${k(router)} through a router: +${k(router - model)} (${(((router - model) / model) * 100).toFixed(1)} %)`,
  );
}
