// The loop's own cost: `runTools` against the same loop written by hand (create, append the
// assistant message, execute the tool, append its result), both on one canned adapter that answers
// at once — four tool-call steps, then the answer: a 5-step run. `node bench/run-tools-worker.mjs`
// prints the CPU time of one run each way (the median of 10 rounds that alternate the two, of
// `BENCH_RUN_TOOLS_ITERATIONS` / 10 runs each), and what runTools adds per step beyond the model
// calls: {"runToolsUs": n, "handLoopUs": n, "perStepUs": n}.
import process from "node:process";
import { ChatModel, defineTool, runTools } from "keelson";
import { messages, toolArguments, weatherParameters, weatherTool } from "./fixtures.mjs";
import { listeners } from "./work/keelson-model.mjs";

const steps = 5;
const argumentsJSON = JSON.stringify(toolArguments);
const usage = { inputTokens: 42, outputTokens: 21 };

class CannedChatModel extends ChatModel {
  providerId = "canned";

  constructor() {
    super(
      "canned-model",
      {},
      { toolChoiceSupport: ["auto", "none", "required", "single"], supportsStructuredOutput: true },
    );
  }

  // Calls a tool until the conversation holds steps - 1 tool results, then answers.
  async _create(input) {
    let results = 0;
    for (const message of input.messages) if (message.role === "tool") results++;
    if (results < steps - 1) {
      const toolCall = { id: `call_${results}`, name: weatherTool.name, args: argumentsJSON };
      return { text: "", toolCalls: [toolCall], finishReason: "tool-calls", usage };
    }
    return { text: "Sunny, 24°C.", finishReason: "stop", usage };
  }

  // Not used: runTools is measured, not streamTools.
  _createStream() {
    throw new Error("not used");
  }
}

const execute = (args) => `${args.city}: sunny, 24°C`;
const tool = defineTool({ name: weatherTool.name, inputSchema: weatherParameters, execute });
const tools = [tool];
const model = new CannedChatModel();
const events = listeners === "none" ? [] : ["start", "success", "error", "finish"];
for (const event of events) model.emitter.on(event, () => undefined);

async function withRunTools() {
  const run = await runTools({ model, messages, tools });
  if (run.steps.length !== steps) throw new Error(`expected ${steps} steps, got ${run.steps.length}`);
}

async function byHand() {
  const transcript = [...messages];
  for (let step = 0; step < steps; step++) {
    const output = await model.create({ messages: transcript.slice(), tools });
    transcript.push(output.message);
    if (output.toolCalls.length === 0) return;
    for (const call of output.toolCalls) {
      const content = String(await execute(call.args, { toolCall: call }));
      transcript.push({ role: "tool", toolCallId: call.id, toolName: call.name, content });
    }
  }
  throw new Error("the hand loop did not end");
}

/** CPU time (user + system) of one run, in µs, over `iterations` runs: steadier than wall time on a shared machine. */
async function cpuTime(run, iterations) {
  const start = process.cpuUsage();
  for (let i = 0; i < iterations; i++) await run();
  const { user, system } = process.cpuUsage(start);
  return (user + system) / iterations;
}

const median = (values) => {
  const sorted = [...values].sort((a, b) => a - b);
  const middle = sorted.length >> 1;
  return sorted.length % 2 === 1 ? sorted[middle] : (sorted[middle - 1] + sorted[middle]) / 2;
};

const iterations = Number(process.env.BENCH_RUN_TOOLS_ITERATIONS ?? 4000);
const rounds = 10;
for (let i = 0; i < iterations / 10; i++) {
  await withRunTools();
  await byHand();
}
const runToolsTimes = [];
const handTimes = [];
for (let round = 0; round < rounds; round++) {
  // Alternating which goes first, each round of iterations / rounds runs.
  const order = round % 2 === 0 ? [withRunTools, byHand] : [byHand, withRunTools];
  for (const run of order) {
    (run === withRunTools ? runToolsTimes : handTimes).push(await cpuTime(run, Math.ceil(iterations / rounds)));
  }
}
const runToolsUs = median(runToolsTimes);
const handLoopUs = median(handTimes);
process.stdout.write(`${JSON.stringify({ runToolsUs, handLoopUs, perStepUs: (runToolsUs - handLoopUs) / steps })}\n`);
