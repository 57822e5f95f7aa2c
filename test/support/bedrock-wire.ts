import type { ConformanceReply, ReplayedRequest, ReplayResponse, WireSummary } from "../../src/testing/index.js";
import { encodeEvents } from "./aws-event-stream.js";
import type { AWSErrorFixture, Reply } from "./bedrock-loopback.js";
import { replyOf } from "./bedrock-loopback.js";
import type { CassetteInteraction } from "./shared-fixtures.js";

/** A Converse reply as JSON for `create`, and as event-stream frames for `createStream`. */
export function bedrockReply(reply: Reply): ConformanceReply {
  return {
    create: { status: 200, headers: { "content-type": "application/json" }, body: JSON.stringify(reply.converse) },
    stream: {
      status: 200,
      headers: { "content-type": "application/vnd.amazon.eventstream" },
      body: encodeEvents(reply.events),
    },
  };
}

/** A documented-format Converse reply whose text is `text`. */
export function bedrockTextReply(text: string): ConformanceReply {
  return bedrockReply(
    replyOf({
      output: { message: { role: "assistant", content: [{ text }] } },
      stopReason: "end_turn",
      usage: { inputTokens: 30, outputTokens: 12, totalTokens: 42 },
    }),
  );
}

/** An AWS error as the service sends it: status, `x-amzn-ErrorType` and a JSON `message`. */
export function awsErrorResponse(fixture: AWSErrorFixture, extraHeaders: Record<string, string> = {}): ReplayResponse {
  return {
    status: fixture.status,
    headers: { "content-type": "application/json", ...fixture.headers, ...extraHeaders },
    body: JSON.stringify(fixture.body),
  };
}

/** A recorded interaction's answer as sent: status, content-type, and the event-stream bytes or the JSON body. */
export function cassetteResponse(interaction: CassetteInteraction): ReplayResponse {
  const { status, headers, parsed_body: parsed, body } = interaction.response;
  const raw = typeof body === "object" && body !== null ? body.string : undefined;
  return {
    status: status.code,
    headers: { "content-type": headers["content-type"]?.[0] ?? "application/json" },
    body: raw ?? JSON.stringify(parsed),
  };
}

/** Where a Converse body carries tools, toolChoice and structured output (`outputConfig.textFormat`). */
export function readBedrockRequest(request: ReplayedRequest): WireSummary {
  const body = request.json as {
    toolConfig?: { tools?: unknown[]; toolChoice?: unknown };
    outputConfig?: { textFormat?: { type?: string; structure?: { jsonSchema?: { schema?: string } } } };
  };
  const format = body.outputConfig?.textFormat;
  const schema = format?.structure?.jsonSchema?.schema;
  return {
    tools: body.toolConfig?.tools,
    toolChoice: body.toolConfig?.toolChoice,
    responseFormat:
      format?.type === "json_schema"
        ? { type: "json-schema", schema: schema === undefined ? undefined : JSON.parse(schema) }
        : undefined,
  };
}
