// `npx tsx bench/body-cap-cost.ts`: the CPU a call spends with the response body cap (the default
// 64 MiB) against `maxResponseBytes: Infinity` (no wrapper), over a loopback server sending chunked
// bodies (no content-length: the capped path). Rounds interleave; the first ones are warm-up.
// A report, not a test.
import { createServer } from "node:http";
import type { AddressInfo } from "node:net";
import { OpenAIChatModel } from "../src/adapters/openai/index.js";

const chunk = (delta: object, finish: string | null = null) =>
  `data: ${JSON.stringify({ id: "c", object: "chat.completion.chunk", created: 1, model: "m", choices: [{ index: 0, delta, finish_reason: finish }] })}\n\n`;
const sse =
  chunk({ role: "assistant", content: "" }) +
  Array.from({ length: 30 }, () => chunk({ content: "word " })).join("") +
  chunk({}, "stop") +
  "data: [DONE]\n\n";
const json = JSON.stringify({
  id: "c",
  object: "chat.completion",
  created: 1,
  model: "m",
  choices: [{ index: 0, message: { role: "assistant", content: "hello ".repeat(30) }, finish_reason: "stop" }],
});
const server = createServer((request, response) => {
  let body = "";
  request.on("data", (c) => (body += c));
  request.on("end", () => {
    const stream = body.includes('"stream":true');
    // chunked, no content-length: the capped path
    response.writeHead(200, { "content-type": stream ? "text/event-stream" : "application/json" });
    response.write(stream ? sse : json);
    response.end();
  });
});
await new Promise<void>((r) => server.listen(0, "127.0.0.1", r));
const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/v1`;
const ask = { messages: [{ role: "user" as const, content: "hi" }] };
async function time(cap: number, mode: string, n: number) {
  const model = new OpenAIChatModel("m", { baseURL: url, apiKey: "k", maxResponseBytes: cap });
  for (let i = 0; i < 200; i++) await (mode === "create" ? model.create(ask) : model.createStream(ask).final());
  const cpu = process.cpuUsage();
  for (let i = 0; i < n; i++) await (mode === "create" ? model.create(ask) : model.createStream(ask).final());
  const used = process.cpuUsage(cpu);
  return ((used.user + used.system) / n).toFixed(0);
}
for (let round = 0; round < 6; round++)
  for (const mode of ["create", "createStream"])
    console.log(
      mode,
      "capped µs cpu/call",
      await time(64 * 1024 * 1024, mode, 1500),
      "uncapped",
      await time(Infinity, mode, 1500),
    );
server.close();
