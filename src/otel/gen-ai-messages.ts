import type { FinishReason } from "../core/output.js";
import type { AssistantContentPart, Message, UserContentPart } from "../core/messages.js";

/** One part of a message as the OpenTelemetry GenAI conventions record it (`gen_ai.input.messages`, `gen_ai.output.messages`). */
type GenAIPart = Record<string, unknown> & { type: string };

interface GenAIMessage {
  role: string;
  parts: GenAIPart[];
  finish_reason?: string;
}

/** The conventions' finish reasons, where keelson's kebab-case ones differ. */
const finishReasons: Partial<Record<FinishReason, string>> = {
  "tool-calls": "tool_call",
  "content-filter": "content_filter",
};

/** Messages in the conventions' shape: a role and typed parts. */
export function genAIMessages(messages: readonly Message[]): GenAIMessage[] {
  return messages.map((message) => {
    if (message.role === "tool")
      return {
        role: "tool",
        parts: [
          {
            type: "tool_call_response",
            id: message.toolCallId,
            response: typeof message.content === "string" ? message.content : message.content.map(genAIPart),
          },
        ],
      };
    const content = message.content as string | (UserContentPart | AssistantContentPart)[];
    return {
      role: message.role,
      parts: typeof content === "string" ? [{ type: "text", content }] : content.map(genAIPart),
    };
  });
}

/** The reply as the conventions' one output message, with its finish reason. */
export function genAIOutputMessage(message: Message, finishReason: FinishReason): GenAIMessage {
  return { ...genAIMessages([message])[0]!, finish_reason: finishReasons[finishReason] ?? finishReason };
}

function genAIPart(part: UserContentPart | AssistantContentPart): GenAIPart {
  switch (part.type) {
    case "text":
      return { type: "text", content: part.text };
    case "reasoning":
      return { type: "reasoning", content: part.text };
    case "tool-call":
      return { type: "tool_call", id: part.id, name: part.name, arguments: part.args };
    case "image":
      return media("image", part.image, part.mediaType);
    case "file":
      return media(part.mediaType.split("/")[0]!, part.data, part.mediaType);
    default:
      return part as GenAIPart;
  }
}

/** A URL (`data:` included) as a `uri` part, base64 data as a `blob`. */
function media(modality: string, source: string, mediaType: string | undefined): GenAIPart {
  const mime = mediaType === undefined ? {} : { mime_type: mediaType };
  return /^[a-z][a-z0-9+.-]*:/i.test(source)
    ? { type: "uri", modality, ...mime, uri: source }
    : { type: "blob", modality, ...mime, content: source };
}
