// A loopback fake of OpenAI chat completions, Ollama /api/chat and Anthropic /v1/messages, in its own process. Every reply
// is built once at start-up; a request only picks one. Prints {"port": n} when listening, and
// exits when its parent closes stdin, on SIGTERM, or after `BENCH_SERVER_LIFETIME_MS` at the latest.
import { Buffer } from "node:buffer";
import { createServer } from "node:http";
import process from "node:process";
import { clearInterval, setInterval, setTimeout } from "node:timers";
import { argumentPieceCount, split, textChunks, toolArguments, weatherTool } from "./fixtures.mjs";

const argumentsJSON = JSON.stringify(toolArguments);
const usage = { prompt_tokens: 42, completion_tokens: 210, total_tokens: 252 };
const unionReply = (wrap) => {
  const call = { name: weatherTool.name, parameters: toolArguments };
  return JSON.stringify(wrap ? { item: call } : call);
};

function openAICompletion(forced, wrap) {
  const message = forced
    ? { role: "assistant", content: unionReply(wrap), refusal: null }
    : {
        role: "assistant",
        content: null,
        refusal: null,
        tool_calls: [
          { id: "call_1", type: "function", function: { name: weatherTool.name, arguments: argumentsJSON } },
        ],
      };
  return JSON.stringify({
    id: "chatcmpl-bench",
    object: "chat.completion",
    created: 1_700_000_000,
    model: "bench-model",
    choices: [{ index: 0, message, logprobs: null, finish_reason: forced ? "stop" : "tool_calls" }],
    usage,
  });
}

function openAIStream(forced, wrap) {
  const chunk = (delta, finishReason = null) =>
    `data: ${JSON.stringify({
      id: "chatcmpl-bench",
      object: "chat.completion.chunk",
      created: 1_700_000_000,
      model: "bench-model",
      choices: [{ index: 0, delta, logprobs: null, finish_reason: finishReason }],
    })}\n\n`;
  const events = [chunk({ role: "assistant", content: "" })];
  if (forced) {
    for (const piece of split(unionReply(wrap), argumentPieceCount)) events.push(chunk({ content: piece }));
    events.push(chunk({}, "stop"));
  } else {
    for (const text of textChunks()) events.push(chunk({ content: text }));
    events.push(
      chunk({
        tool_calls: [{ index: 0, id: "call_1", type: "function", function: { name: weatherTool.name, arguments: "" } }],
      }),
    );
    for (const piece of split(argumentsJSON, argumentPieceCount))
      events.push(chunk({ tool_calls: [{ index: 0, function: { arguments: piece } }] }));
    events.push(chunk({}, "tool_calls"));
  }
  events.push(
    `data: ${JSON.stringify({ id: "chatcmpl-bench", object: "chat.completion.chunk", created: 1_700_000_000, model: "bench-model", choices: [], usage })}\n\n`,
  );
  events.push("data: [DONE]\n\n");
  return events.join("");
}

const ollamaBase = { model: "bench-model", created_at: "2026-01-01T00:00:00Z" };
const ollamaDone = {
  done: true,
  done_reason: "stop",
  total_duration: 1,
  load_duration: 1,
  prompt_eval_count: 42,
  prompt_eval_duration: 1,
  eval_count: 210,
  eval_duration: 1,
};
const ollamaCall = { function: { name: weatherTool.name, arguments: toolArguments } };

function ollamaResponse(forced) {
  const message = forced
    ? { role: "assistant", content: unionReply(false) }
    : { role: "assistant", content: "", tool_calls: [ollamaCall] };
  return JSON.stringify({ ...ollamaBase, message, ...ollamaDone });
}

function ollamaStream(forced) {
  const line = (message, done = false) =>
    `${JSON.stringify({ ...ollamaBase, message: { role: "assistant", ...message }, done })}\n`;
  const lines = forced
    ? split(unionReply(false), argumentPieceCount).map((content) => line({ content }))
    : [...textChunks().map((content) => line({ content })), line({ content: "", tool_calls: [ollamaCall] })];
  lines.push(`${JSON.stringify({ ...ollamaBase, message: { role: "assistant", content: "" }, ...ollamaDone })}\n`);
  return lines.join("");
}

const anthropicUsage = {
  input_tokens: 42,
  output_tokens: 210,
  cache_creation_input_tokens: 0,
  cache_read_input_tokens: 0,
};
const anthropicMessage = (content, stopReason) => ({
  id: "msg_bench",
  type: "message",
  role: "assistant",
  model: "bench-model",
  content,
  stop_reason: stopReason,
  stop_sequence: null,
  usage: anthropicUsage,
});

function anthropicResponse(forced, wrap) {
  const content = forced
    ? [{ type: "text", text: unionReply(wrap) }]
    : [{ type: "tool_use", id: "toolu_bench", name: weatherTool.name, input: toolArguments }];
  return JSON.stringify(anthropicMessage(content, forced ? "end_turn" : "tool_use"));
}

function anthropicStream(forced, wrap) {
  const event = (payload) => `event: ${payload.type}\ndata: ${JSON.stringify(payload)}\n\n`;
  const delta = (index, payload) => event({ type: "content_block_delta", index, delta: payload });
  const events = [
    event({
      type: "message_start",
      message: { ...anthropicMessage([], null), usage: { ...anthropicUsage, output_tokens: 1 } },
    }),
    event({ type: "content_block_start", index: 0, content_block: { type: "text", text: "" } }),
  ];
  const text = forced ? split(unionReply(wrap), argumentPieceCount) : textChunks();
  for (const piece of text) events.push(delta(0, { type: "text_delta", text: piece }));
  events.push(event({ type: "content_block_stop", index: 0 }));
  if (!forced) {
    events.push(
      event({
        type: "content_block_start",
        index: 1,
        content_block: { type: "tool_use", id: "toolu_bench", name: weatherTool.name, input: {} },
      }),
    );
    for (const piece of split(argumentsJSON, argumentPieceCount))
      events.push(delta(1, { type: "input_json_delta", partial_json: piece }));
    events.push(event({ type: "content_block_stop", index: 1 }));
  }
  events.push(
    event({
      type: "message_delta",
      delta: { stop_reason: forced ? "end_turn" : "tool_use", stop_sequence: null },
      usage: { output_tokens: 210 },
    }),
  );
  events.push(event({ type: "message_stop" }));
  return events.join("");
}

const replies = new Map();
for (const forced of [false, true]) {
  for (const wrap of [false, true]) {
    replies.set(`openai|json|${forced}|${wrap}`, openAICompletion(forced, wrap));
    replies.set(`openai|sse|${forced}|${wrap}`, openAIStream(forced, wrap));
  }
  for (const wrap of [false, true]) {
    replies.set(`anthropic|json|${forced}|${wrap}`, anthropicResponse(forced, wrap));
    replies.set(`anthropic|sse|${forced}|${wrap}`, anthropicStream(forced, wrap));
  }
  replies.set(`ollama|json|${forced}|false`, ollamaResponse(forced));
  replies.set(`ollama|ndjson|${forced}|false`, ollamaStream(forced));
}

/** The reply's key for a request body; a JSON-schema response format asks for the forced reply. */
function replyKey(path, body) {
  if (path === "/v1/chat/completions") {
    const schema = body.response_format?.type === "json_schema" ? body.response_format.json_schema?.schema : undefined;
    return `openai|${body.stream ? "sse" : "json"}|${schema !== undefined}|${schema?.properties?.item !== undefined}`;
  }
  if (path === "/v1/messages") {
    const schema = body.output_config?.format?.schema;
    return `anthropic|${body.stream ? "sse" : "json"}|${schema !== undefined}|${schema?.properties?.item !== undefined}`;
  }
  if (path === "/api/chat") {
    const forced = typeof body.format === "object" && body.format !== null;
    return `ollama|${body.stream === false ? "json" : "ndjson"}|${forced}|false`;
  }
  return undefined;
}

/**
 * BENCH_PACE_MS: a stream's events written that many milliseconds apart, as a model writes them
 * (the concurrency benchmark); 0 (the default) writes the whole reply at once.
 */
const paceMs = Number(process.env.BENCH_PACE_MS ?? 0);

/** Writes `reply` one event (ending in `separator`) per `paceMs`, then ends the response. */
function writePaced(response, reply, separator) {
  const events = reply
    .split(separator)
    .filter((event) => event !== "")
    .map((event) => event + separator);
  let next = 0;
  const timer = setInterval(() => {
    if (next < events.length) response.write(events[next++]);
    if (next === events.length) {
      clearInterval(timer);
      response.end();
    }
  }, paceMs);
  response.on("close", () => clearInterval(timer));
}

const contentTypes = { json: "application/json", sse: "text/event-stream", ndjson: "application/x-ndjson" };

const server = createServer((request, response) => {
  const parts = [];
  request.on("data", (part) => parts.push(part));
  request.on("end", () => {
    let body;
    try {
      body = JSON.parse(Buffer.concat(parts).toString("utf8"));
    } catch {
      body = undefined;
    }
    const key = body === undefined ? undefined : replyKey(request.url, body);
    const reply = key === undefined ? undefined : replies.get(key);
    if (reply === undefined) {
      response.writeHead(404, { "content-type": "application/json" });
      response.end(JSON.stringify({ error: { message: `no fake reply for ${request.method} ${request.url}` } }));
      return;
    }
    const format = key.split("|")[1];
    response.writeHead(200, { "content-type": contentTypes[format] });
    if (paceMs > 0 && format !== "json") writePaced(response, reply, format === "sse" ? "\n\n" : "\n");
    else response.end(reply);
  });
});

const lifetime = setTimeout(() => process.exit(0), Number(process.env.BENCH_SERVER_LIFETIME_MS ?? 15 * 60_000));
lifetime.unref();
process.stdin.on("end", () => process.exit(0));
process.stdin.resume();
process.on("SIGTERM", () => process.exit(0));
server.keepAliveTimeout = 30_000;
server.listen(0, "127.0.0.1", () => {
  process.stdout.write(`${JSON.stringify({ port: server.address().port })}\n`);
});
