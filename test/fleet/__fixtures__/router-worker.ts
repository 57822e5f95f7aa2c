// One process of a fleet: a router over two OpenAI members (paths /a and /b of one server) whose
// health is kept in the shared Redis, driven line by line on stdin.
//   go    makes one call and prints {"model"} (the member that answered) or {"error"}, once what the
//         call wrote to the store is there (the router writes a call's end without waiting: a PING
//         after it on the same connection is answered after it)
//   bg    starts one call and prints "started"; its {"model"} line comes when it ends
//   quit  disconnects and exits
import { createInterface } from "node:readline";
import { createClient } from "@redis/client";
import { OpenAIChatModel } from "../../../src/adapters/openai/index.js";
import { createRouter, type RouterStrategy } from "../../../src/index.js";

const [redisUrl, baseURL, group, strategy] = process.argv.slice(2) as [string, string, string, RouterStrategy];
const store = createClient({ url: redisUrl });
store.on("error", () => undefined);
await store.connect();
const options = { apiKey: "sk-test", retry: { maxRetries: 0 } };
// The SDK and the pipeline load before the group is used (a warm-up on another path, outside the group).
await new OpenAIChatModel("warm", { ...options, baseURL: `${baseURL}/warm/v1` }).create({
  messages: [{ role: "user", content: "warm up" }],
});
const member = (name: string) => new OpenAIChatModel(`gpt-${name}`, { ...options, baseURL: `${baseURL}/${name}/v1` });
// A store slower than the default 250 ms on a loaded machine would make this process route on its own health.
const model = createRouter([member("a"), member("b")], {
  strategy,
  cooldownMs: 60_000,
  store,
  name: group,
  storeTimeoutMs: 10_000,
});
model.emitter.on("warning", (warning) => process.stderr.write(`${warning.message}\n`));
const ask = { messages: [{ role: "user" as const, content: "Hello?" }] };
const call = async () => {
  const result = await model.create(ask).then(
    (output) => JSON.stringify({ model: output.meta.model.modelId }),
    (error: Error) => JSON.stringify({ error: error.message }),
  );
  await store.ping();
  return result;
};
process.stdout.write("ready\n");

for await (const line of createInterface({ input: process.stdin })) {
  if (line === "quit") break;
  if (line === "go") process.stdout.write(`${await call()}\n`);
  if (line === "bg") {
    void call().then((result) => process.stdout.write(`${result}\n`));
    process.stdout.write("started\n");
  }
}
await store.quit();
