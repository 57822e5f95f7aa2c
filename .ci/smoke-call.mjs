// Run from an app that installed the packed keelson and ollama (node --input-type=module < this):
// one call and one stream through OllamaChatModel, from the ESM and the CJS build, against a
// loopback server — so the adapter's request code, loaded on the first call, loads from the tarball.
import process from "node:process";
import { createServer } from "node:http";
import { createRequire } from "node:module";

const line = (message, done = false) =>
  `${JSON.stringify({ model: "m", created_at: "2026-01-01T00:00:00Z", message, done, ...(done ? { done_reason: "stop" } : {}) })}\n`;
const call = {
  role: "assistant",
  content: "",
  tool_calls: [{ function: { name: "get_weather", arguments: { city: "Oslo" } } }],
};
const server = createServer((request, response) => {
  let body = "";
  request.on("data", (part) => (body += part));
  request.on("end", () => {
    const streamed = JSON.parse(body).stream !== false;
    response.writeHead(200, { "content-type": streamed ? "application/x-ndjson" : "application/json" });
    response.end(
      streamed
        ? line({ role: "assistant", content: "Checking. " }) +
            line(call) +
            line({ role: "assistant", content: "" }, true)
        : line(call, true),
    );
  });
});
await new Promise((resolve) => server.listen(0, "127.0.0.1", resolve));
const host = `http://127.0.0.1:${server.address().port}`;
const input = {
  messages: [{ role: "user", content: "Weather in Oslo?" }],
  tools: [
    {
      name: "get_weather",
      description: "The weather",
      inputSchema: { type: "object", properties: { city: { type: "string" } }, required: ["city"] },
    },
  ],
};
const require = createRequire(`${process.cwd()}/package.json`);
try {
  for (const [format, { OllamaChatModel }] of [
    ["ESM", await import("keelson/ollama")],
    ["CJS", require("keelson/ollama")],
  ]) {
    const model = new OllamaChatModel("m", { host });
    const created = await model.create(input);
    const stream = model.createStream(input);
    let text = "";
    for await (const chunk of stream) if (chunk.type === "text-delta") text += chunk.text;
    const streamed = await stream.final();
    if (
      created.toolCalls[0]?.args.city !== "Oslo" ||
      streamed.toolCalls[0]?.args.city !== "Oslo" ||
      text !== "Checking. "
    ) {
      throw new Error(
        `${format}: unexpected output ${JSON.stringify({ created: created.toolCalls, streamed: streamed.toolCalls, text })}`,
      );
    }
    process.stdout.write(`${format}: an Ollama call and stream through the packed keelson: ok\n`);
  }
} finally {
  server.close();
}
