// keelson's own cost, without network or SDK: a ChatModel whose adapter hooks hand back a canned
// reply at once (an OpenAI-like tool call with JSON-string arguments; a stream of 200 text deltas
// and the call's arguments in pieces). `node bench/overhead-worker.mjs [mode] [provider]`:
//
// - `hot` (the default): the mean time keelson's pipeline adds to one call and to one stream, in a
//   tight loop of `BENCH_OVERHEAD_ITERATIONS` each: {"callUs": n, "streamUs": n}.
// - `after-sdk <openai|ollama>`: the same call as a real one runs, after the SDK's work: each
//   canned call follows one call of the raw SDK (bench/work/raw-*, its response replayed from
//   memory), both timed: {"keelsonCallUs": [...], "sdkCallUs": [...]}, each call's time.
// - `sdk-alone <openai|ollama>`: the raw SDK's calls back to back, timed: {"sdkCallUs": [...]}.
//
// The last two take BENCH_PORT (the fake server the responses are recorded from) and the call cases'
// BENCH_WARMUP and BENCH_ITERATIONS. A tight loop keeps keelson's code and data in the CPU's caches;
// after the SDK's work they are not, and keelson's work displaces the SDK's in turn.
import process from "node:process";
import { performance } from "node:perf_hooks";
import { ChatModel } from "keelson";
import { argumentPieceCount, split, textChunks, toolArguments, weatherTool } from "./fixtures.mjs";
import { replayFetch } from "./replay-fetch.mjs";
import { work } from "./work/keelson-model.mjs";

const [mode = "hot", provider = "openai"] = process.argv.slice(2);
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
    super("canned-model", {}, { toolChoiceSupport: ["auto", "none", "required", "single"], supportsStructuredOutput: true, supportsTopLevelUnion: false });
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
const { call, stream } = work(new CannedChatModel(), { type: "tool", name: weatherTool.name });

async function meanTime(run, iterations) {
  for (let i = 0; i < iterations / 10; i++) await run();
  const start = performance.now();
  for (let i = 0; i < iterations; i++) await run();
  return ((performance.now() - start) * 1000) / iterations;
}

/** Runs `steps` in turn `warmup + iterations` times; each step's times (µs) in the last `iterations`. */
async function stepTimes(steps, warmup, iterations) {
  const times = steps.map(() => []);
  for (let i = 0; i < warmup + iterations; i++) {
    for (let step = 0; step < steps.length; step++) {
      const start = performance.now();
      await steps[step]();
      if (i >= warmup) times[step].push((performance.now() - start) * 1000);
    }
  }
  return times;
}

let result;
if (mode === "hot") {
  const iterations = Number(process.env.BENCH_OVERHEAD_ITERATIONS ?? 20_000);
  result = { callUs: await meanTime(call, iterations), streamUs: await meanTime(stream, iterations) };
} else if (mode === "after-sdk" || mode === "sdk-alone") {
  replayFetch();
  const { setup } = await import(`./work/raw-${provider}.mjs`);
  const sdkCall = setup({ baseURL: `http://127.0.0.1:${process.env.BENCH_PORT}`, forced: false }).call;
  const warmup = Number(process.env.BENCH_WARMUP ?? 50);
  const iterations = Number(process.env.BENCH_ITERATIONS ?? 200);
  if (mode === "sdk-alone") {
    const [sdkCallUs] = await stepTimes([sdkCall], warmup, iterations);
    result = { sdkCallUs };
  } else {
    const [sdkCallUs, keelsonCallUs] = await stepTimes([sdkCall, call], warmup, iterations);
    result = { keelsonCallUs, sdkCallUs };
  }
} else {
  throw new Error(`unknown mode ${JSON.stringify(mode)}: hot, after-sdk or sdk-alone`);
}
process.stdout.write(`${JSON.stringify(result)}\n`);
