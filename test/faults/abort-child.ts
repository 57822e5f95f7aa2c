/**
 * Run by abort.test.ts in a child process (`node --import tsx abort-child.ts <server url>`): aborts
 * calls at every stage through the real OpenAI and Ollama SDKs, measures how long each promise takes
 * to settle after `abort()`, prints the figures as one JSON line and then ends by itself — with any
 * timer or socket left behind, the process would stay alive and the parent would see it.
 */
import { OllamaChatModel } from "../../src/adapters/ollama/index.js";
import { OpenAIChatModel } from "../../src/adapters/openai/index.js";
import type { ChatModel, ChatModelInput } from "../../src/index.js";

const [url] = process.argv.slice(2);
const retry = { maxRetries: 2, initialDelayMs: 30_000, maxDelayMs: 30_000 };
const models: Record<string, ChatModel> = {
  openai: new OpenAIChatModel("gpt-4o-mini", { baseURL: `${url}/v1`, apiKey: "sk-abort-0123456789", retry }),
  ollama: new OllamaChatModel("llama3.2", { host: url!, retry }),
};
const repetitions = 5;

type Stage = "before the request" | "during the request" | "during a retry wait" | "mid-stream";
const stages: { stage: Stage; prompt: string; modes: ("create" | "createStream")[] }[] = [
  { stage: "before the request", prompt: "ok", modes: ["create", "createStream"] },
  { stage: "during the request", prompt: "hang", modes: ["create", "createStream"] },
  { stage: "during a retry wait", prompt: "retry", modes: ["create", "createStream"] },
  { stage: "mid-stream", prompt: "stall", modes: ["createStream"] },
];

/** Runs one call, aborts it at its stage; returns ms from abort() to the rejection, and its name. */
async function abortOnce(model: ChatModel, mode: "create" | "createStream", stage: Stage, prompt: string) {
  const controller = new AbortController();
  let abortedAt = 0;
  const abort = () => {
    abortedAt = performance.now();
    controller.abort();
  };
  if (stage === "before the request") abort();
  const onRetry = () => setTimeout(abort, 10);
  if (stage === "during a retry wait") model.emitter.once("retry", onRetry);
  if (stage === "during the request") setTimeout(abort, 50);
  const input: ChatModelInput = { messages: [{ role: "user", content: prompt }], signal: controller.signal };
  try {
    if (mode === "create") await model.create(input);
    else {
      const stream = model.createStream(input);
      for await (const chunk of stream) if (stage === "mid-stream" && chunk.type === "text-delta") abort();
    }
    return { ms: -1, name: "settled without error" };
  } catch (error) {
    return { ms: performance.now() - abortedAt, name: (error as Error).name };
  }
}

const results: { adapter: string; stage: Stage; mode: string; ms: number[]; names: string[] }[] = [];
for (const [adapter, model] of Object.entries(models)) {
  await model.create({ messages: [{ role: "user", content: "ok" }] }); // warm: SDK loaded, connection pool ready
  for (const { stage, prompt, modes } of stages) {
    for (const mode of modes) {
      const runs = [];
      for (let run = 0; run < repetitions; run++) runs.push(await abortOnce(model, mode, stage, prompt));
      results.push({
        adapter,
        stage,
        mode,
        ms: runs.map((run) => Math.round(run.ms * 10) / 10),
        names: [...new Set(runs.map((run) => run.name))],
      });
    }
  }
}
// What still holds the event loop 100 ms after every call settled (aborted sockets take a tick to close).
// (Sampled from setImmediate: inside a timer's callback the timer itself still counts.)
setTimeout(() => {
  setImmediate(() => {
    const resources = process.getActiveResourcesInfo();
    process.stdout.write(`${JSON.stringify({ results, resources })}\n`);
  });
}, 100);
