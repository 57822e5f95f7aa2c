import { readFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import type { ConformanceReply, ReplayedRequest, ReplayResponse, WireSummary } from "../../src/testing/index.js";
import { jsonResponse, sseResponse } from "./openai-wire.js";

const ownFixturesDir = join(dirname(fileURLToPath(import.meta.url)), "../adapters/anthropic/__fixtures__");

/** One of our own hand-written Anthropic fixtures (test/adapters/anthropic/__fixtures__). */
export function readOwnAnthropicFixture(name: string): string {
  return readFileSync(join(ownFixturesDir, name), "utf8");
}

/**
 * SSE framing for Messages API events recorded as one JSON payload a line: `event: <type>` and
 * the `data:` line (@anthropic-ai/sdk skips events that have no name).
 */
export function anthropicSSE(ndjson: string): ReplayResponse {
  const events = ndjson
    .split("\n")
    .filter((line) => line.trim() !== "")
    .map((line) => `event: ${(JSON.parse(line) as { type: string }).type}\ndata: ${line}\n\n`);
  return sseResponse(events.join(""));
}

/** A minimal documented-format reply whose text is `text`, for create and for createStream (two deltas). */
export function anthropicTextReply(text: string): ConformanceReply {
  const usage = { input_tokens: 5, output_tokens: 3, cache_creation_input_tokens: 0, cache_read_input_tokens: 0 };
  const message = {
    id: "msg_text",
    type: "message",
    role: "assistant",
    model: "claude-sonnet-4-5",
    content: [{ type: "text", text }],
    stop_reason: "end_turn",
    stop_sequence: null,
    usage,
  };
  const half = Math.ceil(text.length / 2);
  const events = [
    {
      type: "message_start",
      message: { ...message, content: [], stop_reason: null, usage: { ...usage, output_tokens: 1 } },
    },
    { type: "content_block_start", index: 0, content_block: { type: "text", text: "" } },
    { type: "content_block_delta", index: 0, delta: { type: "text_delta", text: text.slice(0, half) } },
    { type: "content_block_delta", index: 0, delta: { type: "text_delta", text: text.slice(half) } },
    { type: "content_block_stop", index: 0 },
    { type: "message_delta", delta: { stop_reason: "end_turn", stop_sequence: null }, usage: { output_tokens: 3 } },
    { type: "message_stop" },
  ];
  return {
    create: jsonResponse(message),
    stream: anthropicSSE(events.map((event) => JSON.stringify(event)).join("\n")),
  };
}

/** How a Messages API body carries tools, tool_choice and the response format. */
export function readAnthropicRequest(request: ReplayedRequest): WireSummary {
  const body = request.json as Record<string, any>;
  const choice = body.tool_choice as { type: string; disable_parallel_tool_use?: boolean } | undefined;
  const format = body.output_config?.format as { type: string; schema: unknown } | undefined;
  return {
    tools: body.tools,
    toolChoice: choice,
    parallelToolCalls: choice?.disable_parallel_tool_use === undefined ? undefined : !choice.disable_parallel_tool_use,
    responseFormat: format?.type === "json_schema" ? { type: "json-schema", schema: format.schema } : undefined,
  };
}

/** An Anthropic error body, `{ type: "error", error: { type, message } }`. */
export function anthropicError(status: number, type: string, message: string, headers: Record<string, string> = {}) {
  return jsonResponse({ type: "error", error: { type, message } }, status, headers);
}
