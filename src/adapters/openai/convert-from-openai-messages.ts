import type { ChatCompletionContentPart, ChatCompletionMessageParam } from "openai/resources/chat/completions";
import type { AssistantContentPart, Message, UserContentPart } from "../../core/messages.js";
import { safeJSONParse } from "../../internal/safe-json.js";

/**
 * chat.completions messages as keelson messages (for a history recorded in OpenAI's format).
 * Tool results get their tool's name from the call they answer.
 */
export function convertFromOpenAIMessages(messages: readonly ChatCompletionMessageParam[]): Message[] {
  const toolNames = new Map<string, string>();
  const result: Message[] = [];
  for (const message of messages) {
    if (message.role === "system" || message.role === "developer") {
      result.push({ role: "system", content: textOf(message.content) });
    } else if (message.role === "user") {
      result.push({
        role: "user",
        content: typeof message.content === "string" ? message.content : message.content.flatMap(fromContentPart),
      });
    } else if (message.role === "assistant") {
      const parts: AssistantContentPart[] = [];
      const text = message.content == null ? "" : textOf(message.content);
      if (text !== "") parts.push({ type: "text", text });
      for (const call of message.tool_calls ?? []) {
        if (call.type !== "function") continue;
        toolNames.set(call.id, call.function.name);
        parts.push({
          type: "tool-call",
          id: call.id,
          name: call.function.name,
          args: parseArguments(call.function.arguments),
        });
      }
      result.push({ role: "assistant", content: parts.length === 1 && parts[0]!.type === "text" ? text : parts });
    } else if (message.role === "tool") {
      const toolName = toolNames.get(message.tool_call_id) ?? "";
      result.push({ role: "tool", toolCallId: message.tool_call_id, toolName, content: textOf(message.content) });
    }
  }
  return result;
}

function textOf(content: string | readonly { type: string; text?: string }[]): string {
  if (typeof content === "string") return content;
  return content.map((part) => (part.type === "text" ? (part.text ?? "") : "")).join("");
}

function fromContentPart(part: ChatCompletionContentPart): UserContentPart[] {
  if (part.type === "text") return [{ type: "text", text: part.text }];
  if (part.type === "image_url") return [{ type: "image", image: part.image_url.url }];
  if (part.type === "input_audio") {
    return [
      {
        type: "file",
        data: part.input_audio.data,
        mediaType: part.input_audio.format === "wav" ? "audio/wav" : "audio/mpeg",
      },
    ];
  }
  const data = part.file.file_data?.match(/^data:([^;]+);base64,(.*)$/s);
  if (!data) return [];
  return [
    {
      type: "file",
      mediaType: data[1]!,
      data: data[2]!,
      ...(part.file.filename ? { filename: part.file.filename } : {}),
    },
  ];
}

function parseArguments(text: string): Record<string, unknown> {
  try {
    const value = safeJSONParse(text);
    return value !== null && typeof value === "object" && !Array.isArray(value)
      ? (value as Record<string, unknown>)
      : {};
  } catch {
    return {};
  }
}
