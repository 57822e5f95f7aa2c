import type { ConformanceReply, ReplayedRequest, ReplayResponse, WireSummary } from "../../src/testing/index.js";
import { jsonResponse, sseResponse } from "./openai-wire.js";

/** SSE framing for Responses events recorded as one JSON payload a line: `event: <type>` and the `data:` line. */
export function responsesSSE(ndjson: string): ReplayResponse {
  const events = ndjson
    .split("\n")
    .filter((line) => line.trim() !== "")
    .map((line) => `event: ${(JSON.parse(line) as { type: string }).type}\ndata: ${line}\n\n`);
  return sseResponse(events.join(""));
}

/** A minimal documented-format response whose text is `text`, for create and for createStream (two deltas). */
export function responsesTextReply(text: string): ConformanceReply {
  const usage = {
    input_tokens: 5,
    input_tokens_details: { cached_tokens: 0 },
    output_tokens: 3,
    output_tokens_details: { reasoning_tokens: 0 },
    total_tokens: 8,
  };
  const item = {
    type: "message",
    id: "msg_text",
    role: "assistant",
    status: "completed",
    content: [{ type: "output_text", text, annotations: [] }],
  };
  const response = {
    id: "resp_text",
    object: "response",
    created_at: 1,
    model: "gpt-5-mini",
    status: "completed",
    error: null,
    incomplete_details: null,
    output: [item],
    usage,
  };
  const half = Math.ceil(text.length / 2);
  const events = [
    { type: "response.created", response: { ...response, status: "in_progress", output: [], usage: null } },
    { type: "response.output_item.added", output_index: 0, item: { ...item, status: "in_progress", content: [] } },
    {
      type: "response.output_text.delta",
      output_index: 0,
      item_id: "msg_text",
      content_index: 0,
      delta: text.slice(0, half),
    },
    {
      type: "response.output_text.delta",
      output_index: 0,
      item_id: "msg_text",
      content_index: 0,
      delta: text.slice(half),
    },
    { type: "response.output_item.done", output_index: 0, item },
    { type: "response.completed", response },
  ];
  return {
    create: jsonResponse(response),
    stream: responsesSSE(events.map((event) => JSON.stringify(event)).join("\n")),
  };
}

/** How a /v1/responses body carries tools, tool_choice and the response format. */
export function readResponsesRequest(request: ReplayedRequest): WireSummary {
  const body = request.json as Record<string, any>;
  const format = body.text?.format as { type: string; schema?: unknown } | undefined;
  return {
    tools: body.tools,
    toolChoice: body.tool_choice,
    parallelToolCalls: body.parallel_tool_calls,
    responseFormat:
      format?.type === "json_schema"
        ? { type: "json-schema", schema: format.schema }
        : format?.type === "json_object"
          ? { type: "json" }
          : undefined,
  };
}
