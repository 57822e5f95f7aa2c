// keelson's own cost, without network or SDK: a ChatModel whose adapter hooks hand back a canned
// reply at once (an OpenAI-like tool call with JSON-string arguments; a stream of 200 text deltas
// and the call's arguments in pieces). `node bench/overhead-worker.mjs` prints the mean time
// keelson's pipeline adds to one call and to one stream, in a tight loop of
// `BENCH_OVERHEAD_ITERATIONS` each: {"callUs": n, "streamUs": n}. A tight loop keeps keelson's code
// and data in the CPU's caches and lets V8 optimise it; in a real call neither holds (see
// segments-worker.mjs for keelson's time within a call on the loopback). The same work through a
// router (createRouter, least-busy over two canned members: health read, members ranked, the call
// counted in flight and timed) gives the router's own cost: {"routerCallUs", "routerStreamUs"}.
// BENCH_OVERHEAD_SIDE=model|router and BENCH_OVERHEAD_KIND=call|stream measure one side and kind
// only (bench/router-cost.ts counts their instructions under cachegrind).
import process from "node:process";
import { performance } from "node:perf_hooks";
import { ChatModel, createRouter } from "keelson";
import { argumentPieceCount, split, textChunks, toolArguments, weatherTool } from "./fixtures.mjs";
import { work } from "./work/keelson-model.mjs";

const argumentsJSON = JSON.stringify(toolArguments);
const usage = { inputTokens: 42, outputTokens: 210 };
const streamChunks = [
  ...textChunks().map((text) => ({ type: "text-delta", text })),
  { type: "tool-call-delta", index: 0, id: "call_1", name: weatherTool.name },
  ...split(argumentsJSON, argumentPieceCount).map((argsDelta) => ({ type: "tool-call-delta", index: 0, argsDelta })),
  { type: "usage", usage },
  { type: "finish", finishReason: "tool-calls", usage },
];

class CannedChatModel extends ChatModel {
  providerId = "canned";
  // As the built-in adapters do: a call nothing can abort shares the inert signal.
  plainCallsShareInertSignal = true;

  constructor() {
    super(
      "canned-model",
      {},
      {
        toolChoiceSupport: ["auto", "none", "required", "single"],
        supportsStructuredOutput: true,
        supportsTopLevelUnion: false,
      },
    );
  }

  async _create() {
    const toolCall = { id: "call_1", name: weatherTool.name, args: argumentsJSON };
    return { text: "", toolCalls: [toolCall], finishReason: "tool-calls", usage };
  }

  async *_createStream() {
    for (const chunk of streamChunks) yield chunk;
  }
}

// The same input, listeners and work as the keelson side of the network cases.
const toolChoice = { type: "tool", name: weatherTool.name };
const side = process.env.BENCH_OVERHEAD_SIDE ?? "both";
const kind = process.env.BENCH_OVERHEAD_KIND ?? "both";
const direct = work(new CannedChatModel(), toolChoice);
const routed = work(
  createRouter([new CannedChatModel(), new CannedChatModel()], { strategy: "least-busy" }),
  toolChoice,
);

async function meanTime(run, iterations) {
  for (let i = 0; i < iterations / 10; i++) await run();
  const start = performance.now();
  for (let i = 0; i < iterations; i++) await run();
  return ((performance.now() - start) * 1000) / iterations;
}

const iterations = Number(process.env.BENCH_OVERHEAD_ITERATIONS ?? 20_000);
const result = {};
if (side !== "router" && kind !== "stream") result.callUs = await meanTime(direct.call, iterations);
if (side !== "router" && kind !== "call") result.streamUs = await meanTime(direct.stream, iterations);
if (side !== "model" && kind !== "stream") result.routerCallUs = await meanTime(routed.call, iterations);
if (side !== "model" && kind !== "call") result.routerStreamUs = await meanTime(routed.stream, iterations);
process.stdout.write(`${JSON.stringify(result)}\n`);
