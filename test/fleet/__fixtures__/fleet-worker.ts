// One process of a fleet: a model rate-limited through the shared Redis, driven line by line on stdin.
//   go N   sends N calls at once (each with the timeout given) and prints
//          {"results":[{"text"} | {"status","error"} | {"name"}]}
//   quit   disconnects and exits
import { createInterface } from "node:readline";
import { createClient } from "@redis/client";
import { OpenAIChatModel } from "../../../src/adapters/openai/index.js";

const [redisUrl, baseURL, modelId, requestsPerMinute, timeoutMs] = process.argv.slice(2) as [
  string,
  string,
  string,
  string,
  string,
];
const store = createClient({ url: redisUrl });
store.on("error", () => undefined);
await store.connect();
const options = { baseURL, apiKey: "sk-test", retry: { maxRetries: 0 } };
// The SDK and the pipeline load before the budget counts (a warm-up on another path, not rate-limited).
await new OpenAIChatModel(modelId, { ...options, baseURL: `${baseURL}/warm` }).create({
  messages: [{ role: "user", content: "warm up" }],
});
const model = new OpenAIChatModel(modelId, {
  ...options,
  rateLimit: { requestsPerMinute: Number(requestsPerMinute), store },
});
const ask = { messages: [{ role: "user" as const, content: "Hello?" }], timeout: Number(timeoutMs) };
process.stdout.write("ready\n");

for await (const line of createInterface({ input: process.stdin })) {
  const [command, count] = line.split(" ");
  if (command === "quit") break;
  const results = await Promise.all(
    Array.from({ length: Number(count) }, () =>
      model.create(ask).then(
        (output) => ({ text: output.text }),
        (error: Error & { statusCode?: number }) =>
          error.statusCode === undefined ? { name: error.name } : { status: error.statusCode, error: error.message },
      ),
    ),
  );
  process.stdout.write(`${JSON.stringify({ results })}\n`);
}
await store.quit();
