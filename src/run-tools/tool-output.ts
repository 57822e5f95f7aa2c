import type { ToolCall, ToolMessage, ToolResultPart } from "../core/messages.js";
import { validatorFor } from "../core/schema/validate.js";
import type { Tool } from "../core/tool.js";

/** A result that fails its tool's `outputSchema`: an error result, or `RunError` reason `tool-output`. */
export class ToolOutputMismatch extends Error {
  constructor(toolName: string, issues: readonly string[]) {
    super(`the tool '${toolName}' returned a result that does not match its outputSchema (${issues.join("; ")}).`);
    this.name = "ToolOutputMismatch";
  }
}

/** Checks a result against its tool's `outputSchema` (a rich `{ content }` result is not checked); returns it, parsed. */
export function checkOutput(tool: Tool, result: unknown): unknown {
  if (tool.outputSchema === undefined || isRichResult(result)) return result;
  const checked = validatorFor(tool.outputSchema)(result);
  if (!checked.success) throw new ToolOutputMismatch(tool.name, checked.issues);
  return result;
}

/** The tool message for a result: a string as is, `{ content: parts }` as its parts, anything else as JSON. */
export function resultMessage(call: ToolCall, result: unknown): ToolMessage {
  if (typeof result === "string") return toolMessage(call, result);
  if (isRichResult(result)) return toolMessage(call, richParts(result.content, call));
  return toolMessage(call, toJSON(result, call));
}

export function toolMessage(call: ToolCall, content: string | ToolResultPart[]): ToolMessage {
  return { role: "tool", toolCallId: call.id, toolName: call.name, content };
}

/** `{ content: [...] }` and nothing else, each element a part with a `type` keelson sends: a rich result. */
function isRichResult(result: unknown): result is { content: unknown[] } {
  if (result === null || typeof result !== "object" || Array.isArray(result)) return false;
  const keys = Object.keys(result);
  if (keys.length !== 1 || keys[0] !== "content") return false;
  const { content } = result as { content: unknown };
  return (
    Array.isArray(content) &&
    content.length > 0 &&
    content.every((part) => partTypes.has((part as { type?: unknown } | null)?.type as string))
  );
}

const partTypes = new Set(["text", "image", "file"]);

/** The parts of a rich result, copied, each checked for the fields an adapter reads. */
function richParts(content: readonly unknown[], call: ToolCall): ToolResultPart[] {
  return content.map((value, index) => {
    const part = value as Record<string, unknown>;
    const where = `content[${index}] of the result of '${call.name}'`;
    switch (part.type) {
      case "text":
        if (typeof part.text === "string") return { type: "text", text: part.text };
        throw new TypeError(`${where} is a text part without text (a string).`);
      case "image":
        if (typeof part.image === "string" && (part.mediaType === undefined || typeof part.mediaType === "string"))
          return {
            type: "image",
            image: part.image,
            ...(part.mediaType === undefined ? {} : { mediaType: part.mediaType }),
          };
        throw new TypeError(`${where} is an image part: it needs image (a URL or base64 data) and mediaType.`);
      default:
        if (typeof part.data === "string" && typeof part.mediaType === "string")
          return {
            type: "file",
            data: part.data,
            mediaType: part.mediaType,
            ...(typeof part.filename === "string" ? { filename: part.filename } : {}),
          };
        throw new TypeError(`${where} is a file part: it needs data (base64 or a data: URL) and mediaType.`);
    }
  });
}

/** JSON of a result (`undefined` as `null`, which every provider takes). */
function toJSON(result: unknown, call: ToolCall): string {
  let json: string | undefined;
  try {
    json = JSON.stringify(result === undefined ? null : result);
  } catch (error) {
    throw new TypeError(`the result of '${call.name}' cannot be sent as JSON (${describeError(error)}).`, {
      cause: error,
    });
  }
  // A function or a symbol: JSON has no value for it.
  if (json === undefined)
    throw new TypeError(`the result of '${call.name}' cannot be sent as JSON (${typeof result}).`);
  return json;
}

/** An error's message, for a tool message or a RunError: never throws, whatever was thrown. */
export function describeError(error: unknown): string {
  try {
    if (error instanceof Error) return error.message || error.name;
    return typeof error === "string" ? error : String(error);
  } catch {
    return "an error that cannot be shown as text";
  }
}
