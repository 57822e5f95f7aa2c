// keelson's own cost per call, without network or SDK: a ChatModel whose adapter hooks hand back a
// canned reply at once (an OpenAI-like tool call with JSON-string arguments; a stream of 200 text
// deltas and the call's arguments in pieces). Prints {"callUs": n, "streamUs": n} — the mean time
// keelson's pipeline adds to one call and to one stream, for `BENCH_OVERHEAD_ITERATIONS` of each.
import process from "node:process";
import { performance } from "node:perf_hooks";
import { ChatModel } from "keelson";
import { argumentPieceCount, split, textChunks, toolArguments, weatherTool } from "./fixtures.mjs";
import { work } from "./work/keelson-model.mjs";

const iterations = Number(process.env.BENCH_OVERHEAD_ITERATIONS ?? 20_000);
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

  constructor() {
    super("canned-model", {}, { toolChoiceSupport: ["auto", "none", "required", "single"], supportsStructuredOutput: true, supportsTopLevelUnion: false });
  }

  async _create() {
    return { text: "", toolCalls: [{ id: "call_1", name: weatherTool.name, args: argumentsJSON }], finishReason: "tool-calls", usage };
  }

  async *_createStream() {
    for (const chunk of streamChunks) yield chunk;
  }
}

// The same input, listeners and work as the keelson side of the network cases.
const { call, stream } = work(new CannedChatModel(), { type: "tool", name: weatherTool.name });

async function timeEach(run) {
  for (let i = 0; i < iterations / 10; i++) await run();
  const start = performance.now();
  for (let i = 0; i < iterations; i++) await run();
  return ((performance.now() - start) * 1000) / iterations;
}

const callUs = await timeEach(call);
const streamUs = await timeEach(stream);
process.stdout.write(`${JSON.stringify({ callUs, streamUs })}\n`);
