/**
 * What the Ollama suites share, shaped so that the adapter conformance suite can take it over:
 * a function that builds the model for a loopback URL, and handlers that answer `/api/chat` the
 * way Ollama does (one JSON body, or NDJSON when the request asked to stream).
 */
import { readFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import type { ChatResponse } from "ollama";
import { OllamaChatModel } from "../../../src/adapters/ollama/index.js";
import type { OllamaChatModelOptions } from "../../../src/adapters/ollama/index.js";
import type { ConformanceReply, ReplayedRequest, ReplayResponse, WireSummary } from "../../../src/testing/index.js";
import type { Handler, RecordedRequest } from "../../support/loopback-server.js";
import { sendJSON } from "../../support/loopback-server.js";
import { ndjsonLines, sendNDJSON } from "../../support/ndjson.js";

const ownFixturesDir = join(dirname(fileURLToPath(import.meta.url)), "__fixtures__");

/** The model under test, pointed at a loopback server. No transport retries unless asked. */
export function createOllamaModel(
  url: string,
  options: OllamaChatModelOptions = {},
  modelId = "llama3.2",
): OllamaChatModel {
  return new OllamaChatModel(modelId, { host: url, retry: { maxRetries: 0 }, ...options });
}

export function readOwnFixture(name: string): string {
  return readFileSync(join(ownFixturesDir, name), "utf8");
}

export function readOwnJSON<T = ChatResponse>(name: string): T {
  return JSON.parse(readOwnFixture(name)) as T;
}

/** Whether the SDK asked for a stream. */
export function wantsStream(request: RecordedRequest): boolean {
  return request.json?.stream === true;
}

/**
 * Answers with a whole `/api/chat` response: as the JSON body when the request did not stream;
 * otherwise as the stream Ollama would have sent for it (see `toStreamParts`).
 */
export function replyWith(response: ChatResponse | object): Handler {
  return (request, reply) => {
    if (wantsStream(request)) return sendNDJSON(reply, toStreamParts(response as ChatResponse));
    sendJSON(reply, 200, response);
  };
}

/** Answers with a recorded NDJSON stream, whatever the request asked. */
export function replyNDJSON(text: string): Handler {
  return (_request, reply) => sendNDJSON(reply, ndjsonLines(text));
}

/** Answers with an error status and body, as Ollama does: `{"error": "…"}`, JSON. */
export function replyError(status: number, body: unknown): Handler {
  return (_request, reply) => sendJSON(reply, status, body);
}

/**
 * A non-streamed response as Ollama streams it (docs/api.md, "Chat request (Streaming)"):
 * thinking and content split into deltas, tool calls whole in one `done: false` object, then a
 * `done: true` object with an empty message, `done_reason` and the counts.
 */
export function toStreamParts(response: ChatResponse): object[] {
  const { message, done: _done, done_reason, ...stats } = response;
  const head = { model: response.model, created_at: response.created_at };
  const parts: object[] = [];
  const delta = (fields: object) =>
    parts.push({ ...head, message: { role: "assistant", content: "", ...fields }, done: false });
  for (const piece of pieces(message.thinking ?? "")) delta({ thinking: piece });
  for (const piece of pieces(message.content)) delta({ content: piece });
  if (message.tool_calls?.length) delta({ tool_calls: message.tool_calls });
  parts.push({ ...stats, message: { role: "assistant", content: "" }, done_reason, done: true });
  return parts;
}

function pieces(text: string): string[] {
  return text.match(/\S+\s*|\s+/g) ?? [];
}

/** A `/api/chat` JSON body, as the conformance suite replays it. */
export function ollamaJSON(body: string | object, status = 200): ReplayResponse {
  return {
    status,
    headers: { "content-type": "application/json" },
    body: typeof body === "string" ? body : JSON.stringify(body),
  };
}

/** An NDJSON stream, one object per line, each line sent on its own. */
export function ollamaNDJSON(lines: readonly (string | object)[]): ReplayResponse {
  const text = lines.map((line) => `${typeof line === "string" ? line : JSON.stringify(line)}\n`);
  return { status: 200, headers: { "content-type": "application/x-ndjson" }, body: text };
}

/** A whole response for `create`, and the stream Ollama would have sent for it (`toStreamParts`). */
export function ollamaReply(response: ChatResponse): ConformanceReply {
  return { create: ollamaJSON(response), stream: ollamaNDJSON(toStreamParts(response)) };
}

/** A documented-format `/api/chat` reply whose text is `text`. */
export function ollamaTextReply(text: string): ConformanceReply {
  return ollamaReply({ ...readOwnJSON("api-chat-nonstream-text.json"), message: { role: "assistant", content: text } });
}

/** Where an `/api/chat` body carries tools and structured output (Ollama has no tool_choice field). */
export function readOllamaRequest(request: ReplayedRequest): WireSummary {
  const body = request.json as { tools?: unknown[]; tool_choice?: unknown; format?: unknown };
  const format = body.format;
  return {
    tools: body.tools,
    toolChoice: body.tool_choice,
    responseFormat:
      format === undefined ? undefined : format === "json" ? { type: "json" } : { type: "json-schema", schema: format },
  };
}
