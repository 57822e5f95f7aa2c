import { readFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import type { ConformanceReply, ReplayedRequest, ReplayResponse, WireSummary } from "../../src/testing/index.js";
import type { ServerResponse } from "node:http";
import type { Handler, LoopbackServer, RecordedRequest } from "./loopback-server.js";

const ownFixturesDir = join(dirname(fileURLToPath(import.meta.url)), "../adapters/openai/__fixtures__");

/** One of our own hand-written OpenAI fixtures (test/adapters/openai/__fixtures__). */
export function readOwnOpenAIFixture(name: string): string {
  return readFileSync(join(ownFixturesDir, name), "utf8");
}

export function jsonResponse(
  body: string | object,
  status = 200,
  headers: Record<string, string> = {},
): ReplayResponse {
  return {
    status,
    headers: { "content-type": "application/json", ...headers },
    body: typeof body === "string" ? body : JSON.stringify(body),
  };
}

/** SSE bytes exactly as given (a recorded `.sse` file). */
export function sseResponse(bytes: string | Uint8Array): ReplayResponse {
  return { status: 200, headers: { "content-type": "text/event-stream; charset=utf-8" }, body: bytes };
}

/** SSE framing for payloads recorded without it (one `data:` event each, then `[DONE]`). */
export function ssePayloads(payloads: readonly string[]): string {
  return payloads.map((payload) => `data: ${payload}\n\n`).join("") + "data: [DONE]\n\n";
}

/** A minimal documented-format reply whose text is `text`, for create and for createStream (two deltas). */
export function openAITextReply(text: string): ConformanceReply {
  const base = { id: "chatcmpl-text", created: 1, model: "gpt-4o-mini" };
  const usage = { prompt_tokens: 5, completion_tokens: 3, total_tokens: 8 };
  const completion = {
    ...base,
    object: "chat.completion",
    choices: [
      { index: 0, message: { role: "assistant", content: text, refusal: null }, logprobs: null, finish_reason: "stop" },
    ],
    usage,
  };
  const half = Math.ceil(text.length / 2);
  const chunk = (delta: object, finish: string | null) =>
    JSON.stringify({
      ...base,
      object: "chat.completion.chunk",
      choices: [{ index: 0, delta, logprobs: null, finish_reason: finish }],
    });
  const stream = ssePayloads([
    chunk({ role: "assistant", content: text.slice(0, half) }, null),
    chunk({ content: text.slice(half) }, null),
    chunk({}, "stop"),
    JSON.stringify({ ...base, object: "chat.completion.chunk", choices: [], usage }),
  ]);
  return { create: jsonResponse(completion), stream: sseResponse(stream) };
}

/** How an OpenAI chat.completions body carries tools, tool_choice and the response format. */
export function readOpenAIRequest(request: ReplayedRequest): WireSummary {
  const body = request.json as Record<string, any>;
  const format = body.response_format as { type: string; json_schema?: { schema: unknown } } | undefined;
  return {
    tools: body.tools,
    toolChoice: body.tool_choice,
    parallelToolCalls: body.parallel_tool_calls,
    responseFormat:
      format?.type === "json_schema"
        ? { type: "json-schema", schema: format.json_schema?.schema }
        : format?.type === "json_object"
          ? { type: "json" }
          : undefined,
  };
}

/** Answers one request with `text`: a chat completion, or its stream when the request streams. */
export function sendTextReply(request: RecordedRequest, response: ServerResponse, text: string): void {
  const reply = openAITextReply(text);
  const step = (request.json as { stream?: boolean } | undefined)?.stream ? reply.stream! : reply.create!;
  response.writeHead(200, step.headers);
  response.end(step.body as string);
}

/** A handler answering every request with `text` (see sendTextReply). */
export function textReplyHandler(text: string): Handler {
  return (request, response) => sendTextReply(request, response, text);
}

/** The server answers every request with `text`: a chat completion, or its stream when the request streams. */
export function answerWithText(server: LoopbackServer, text: string): void {
  server.handle(textReplyHandler(text));
}

/** One chat.completion.chunk of a stream, as JSON: choice 0 with `delta`, and its finish reason. */
export function streamChunk(delta: object, finish: string | null = null, model = "some-model"): string {
  return JSON.stringify({
    id: "x",
    object: "chat.completion.chunk",
    created: 1,
    model,
    choices: [{ index: 0, delta, finish_reason: finish }],
  });
}

/** The server answers every request with these SSE payloads (then `[DONE]`). */
export function answerWithStream(server: LoopbackServer, payloads: readonly string[]): void {
  server.handle((_request, response) => {
    response.writeHead(200, { "content-type": "text/event-stream" });
    response.end(ssePayloads(payloads));
  });
}
