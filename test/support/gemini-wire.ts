import type { ConformanceReply, ReplayedRequest, ReplayResponse, WireSummary } from "../../src/testing/index.js";
import { jsonResponse, sseResponse } from "./openai-wire.js";

/** Gemini SSE framing for recorded `data:` payloads (one JSON a line, as the VAI `.chunks.ndjson`). */
export function geminiSSE(lines: string): ReplayResponse {
  const events = lines
    .split("\n")
    .filter((line) => line.trim() !== "")
    .map((line) => `data: ${line}\r\n\r\n`);
  return sseResponse(events.join(""));
}

/** A minimal documented-format reply whose text is `text`, for create and for createStream (two events). */
export function geminiTextReply(text: string): ConformanceReply {
  const usage = { promptTokenCount: 5, candidatesTokenCount: 3, totalTokenCount: 8 };
  const candidate = (part: string, finish?: string) => ({
    content: { parts: [{ text: part }], role: "model" },
    ...(finish ? { finishReason: finish } : {}),
    index: 0,
  });
  const half = Math.ceil(text.length / 2);
  return {
    create: jsonResponse({
      candidates: [candidate(text, "STOP")],
      usageMetadata: usage,
      modelVersion: "gemini-2.5-flash",
    }),
    stream: geminiSSE(
      [
        { candidates: [candidate(text.slice(0, half))], usageMetadata: usage },
        { candidates: [candidate(text.slice(half), "STOP")], usageMetadata: usage },
      ]
        .map((event) => JSON.stringify(event))
        .join("\n"),
    ),
  };
}

/** How a generateContent body carries tools, the function-calling config and the response format. */
export function readGeminiRequest(request: ReplayedRequest): WireSummary {
  const body = request.json as Record<string, any>;
  const declarations = (body.tools as { functionDeclarations?: unknown[] }[] | undefined)?.flatMap(
    (tool) => tool.functionDeclarations ?? [],
  );
  const config = body.generationConfig as Record<string, unknown> | undefined;
  const mime = config?.responseMimeType;
  return {
    tools: declarations,
    toolChoice: body.toolConfig?.functionCallingConfig,
    responseFormat:
      mime === "application/json"
        ? config?.responseJsonSchema === undefined
          ? { type: "json" }
          : { type: "json-schema", schema: config.responseJsonSchema }
        : undefined,
  };
}

/** A Google API error body, `{ error: { code, message, status } }`. */
export function geminiError(status: number, rpcStatus: string, message: string, headers: Record<string, string> = {}) {
  return jsonResponse({ error: { code: status, message, status: rpcStatus } }, status, headers);
}
