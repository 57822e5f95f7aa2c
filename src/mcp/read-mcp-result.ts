import type { FilePart, ImagePart, TextPart } from "../core/messages.js";

/** A rich tool result: the parts of what the tool returned (text, images, files). */
export interface McpRichResult {
  content: (TextPart | ImagePart | FilePart)[];
}

interface McpContent {
  type?: unknown;
  text?: unknown;
  data?: unknown;
  mimeType?: unknown;
  uri?: unknown;
  name?: unknown;
  resource?: { uri?: unknown; text?: unknown; blob?: unknown; mimeType?: unknown };
}

/**
 * A `tools/call` result as what `execute` returns: its `structuredContent` when it has one; else
 * its content — a string when it is only text, else the parts (`{ content }`, a rich result: images
 * and audio as base64 with their media type, an embedded resource's text or blob, a resource link
 * as a line of text). A result with `isError: true` is the failure the model reads, as text
 * starting "Error:" (one text part, a rich result that no output schema checks), never a throw.
 */
export function readMcpResult(result: unknown): string | McpRichResult | Record<string, unknown> {
  const { content, structuredContent, isError, toolResult } = (result ?? {}) as {
    content?: unknown;
    structuredContent?: unknown;
    isError?: unknown;
    toolResult?: unknown;
  };
  const parts = Array.isArray(content) ? content.map(readPart) : [];
  if (isError === true) {
    // A rich result: runTools sends it as it is (an outputSchema checks only what the tool produced).
    const text = parts.map((part) => (part.type === "text" ? part.text : `[${part.type}]`)).join("\n");
    return { content: [{ type: "text", text: `Error: ${text || "the tool reported an error without saying why."}` }] };
  }
  if (structuredContent !== null && typeof structuredContent === "object" && !Array.isArray(structuredContent)) {
    return structuredContent as Record<string, unknown>;
  }
  // A server on the 2024-10-07 protocol answers with `toolResult`.
  if (!Array.isArray(content) && toolResult !== undefined) {
    return typeof toolResult === "string" ? toolResult : JSON.stringify(toolResult);
  }
  if (parts.every((part) => part.type === "text")) return parts.map((part) => (part as TextPart).text).join("\n");
  return { content: parts };
}

function readPart(value: unknown): TextPart | ImagePart | FilePart {
  const part = (value ?? {}) as McpContent;
  const mimeType = typeof part.mimeType === "string" ? part.mimeType : undefined;
  switch (part.type) {
    case "text":
      return { type: "text", text: String(part.text ?? "") };
    case "image":
      return { type: "image", image: String(part.data ?? ""), mediaType: mimeType ?? "image/png" };
    case "audio":
      return { type: "file", data: String(part.data ?? ""), mediaType: mimeType ?? "application/octet-stream" };
    case "resource": {
      const resource = part.resource ?? {};
      if (typeof resource.text === "string") return { type: "text", text: resource.text };
      const mediaType = typeof resource.mimeType === "string" ? resource.mimeType : "application/octet-stream";
      return { type: "file", data: String(resource.blob ?? ""), mediaType };
    }
    case "resource_link":
      return { type: "text", text: `[resource ${String(part.name ?? "")}: ${String(part.uri ?? "")}]` };
    default:
      return { type: "text", text: JSON.stringify(value) };
  }
}
