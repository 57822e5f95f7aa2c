import type {
  ChatCompletionAssistantMessageParam,
  ChatCompletionContentPart,
  ChatCompletionMessageParam,
} from "openai/resources/chat/completions";
import { UnsupportedFeatureError } from "../../core/errors/unsupported-feature-error.js";
import type {
  AssistantContentPart,
  FilePart,
  ImagePart,
  Message,
  ToolCall,
  ToolMessage,
  ToolResultPart,
  UserContentPart,
} from "../../core/messages.js";
import { messageText } from "../../core/messages.js";

/** The assistant-message field an OpenAI-compatible server reads reasoning from. */
export type OpenAIReasoningField = "reasoning_content" | "reasoning";

export interface ConvertToOpenAIOptions {
  /**
   * Send an assistant tool-call turn's reasoning back, the way OpenAI-compatible reasoning servers
   * take it (DeepSeek's thinking mode and Kimi K2 answer 400 when a tool-call turn comes back without
   * it). OpenAI's own API takes no reasoning back.
   * @default false
   */
  reasoningContent?: boolean | undefined;
  /**
   * The field that carries it: `reasoning_content` (DeepSeek, Kimi) or `reasoning` (Ollama's /v1,
   * OpenRouter, which read no other).
   * @default "reasoning_content"
   */
  reasoningField?: OpenAIReasoningField | undefined;
}

/**
 * keelson messages as chat.completions messages. An assistant message goes whole: its text and
 * its tool calls (ids kept) in one message; reasoning is dropped (OpenAI's chat.completions takes
 * none back) unless `reasoningContent` asks for it on tool-call turns, in `reasoningField`. Tool results pair with
 * their call by `tool_call_id`.
 */
export function convertToOpenAIMessages(
  messages: readonly Message[],
  options: ConvertToOpenAIOptions = {},
): ChatCompletionMessageParam[] {
  const reasoningField =
    options.reasoningContent === true ? (options.reasoningField ?? "reasoning_content") : undefined;
  const converted: ChatCompletionMessageParam[] = [];
  // A loop, not map(): with the input checks' own fix, 64k instructions less at 500 messages (2.1 %, npm run bench:instructions).
  for (const message of messages) {
    if (message.role === "tool" && typeof message.content !== "string")
      converted.push(...toolResult(message, message.content));
    else converted.push(toOpenAIMessage(message, reasoningField));
  }
  return converted;
}

function toOpenAIMessage(
  message: Message,
  reasoningField: OpenAIReasoningField | undefined,
): ChatCompletionMessageParam {
  switch (message.role) {
    case "system":
      return { role: "system", content: message.content };
    case "user":
      return {
        role: "user",
        content: typeof message.content === "string" ? message.content : message.content.map(toContentPart),
      };
    case "assistant":
      return toAssistantMessage(message.content, reasoningField);
    case "tool":
      return { role: "tool", tool_call_id: message.toolCallId, content: messageText(message) };
  }
}

/**
 * A tool result with parts: chat.completions takes only text in a tool message, so its text goes
 * there and its images and files in a user message right after it (the call's `warning` says so).
 */
function toolResult(message: ToolMessage, parts: readonly ToolResultPart[]): ChatCompletionMessageParam[] {
  const tool: ChatCompletionMessageParam = {
    role: "tool",
    tool_call_id: message.toolCallId,
    content: parts.flatMap((part) => (part.type === "text" ? [part.text] : [])).join("\n"),
  };
  const media = parts.flatMap((part) => (part.type === "text" ? [] : [toContentPart(part)]));
  if (media.length === 0) return [tool];
  const note: ChatCompletionContentPart = {
    type: "text",
    text: `[images and files returned by tool ${message.toolName} (${message.toolCallId})]`,
  };
  return [tool, { role: "user", content: [note, ...media] }];
}

function toAssistantMessage(
  content: string | AssistantContentPart[],
  reasoningField: OpenAIReasoningField | undefined,
): ChatCompletionAssistantMessageParam {
  if (typeof content === "string") return { role: "assistant", content };
  const text = content.flatMap((part) => (part.type === "text" ? [part.text] : [])).join("");
  const toolCalls = content.filter((part): part is ToolCall => part.type === "tool-call");
  if (toolCalls.length === 0) return { role: "assistant", content: text };
  const reasoning = reasoningField
    ? content.flatMap((part) => (part.type === "reasoning" ? [part.text] : [])).join("")
    : "";
  return {
    role: "assistant",
    content: text === "" ? null : text,
    ...(reasoning === "" || !reasoningField ? {} : { [reasoningField]: reasoning }),
    tool_calls: toolCalls.map((call) => ({
      id: call.id,
      type: "function",
      function: { name: call.name, arguments: JSON.stringify(call.args) },
      // Gemini's OpenAI-compatible endpoint refuses a tool-call turn without the call's thought signature.
      ...(call.signature && reasoningField ? { extra_content: { google: { thought_signature: call.signature } } } : {}),
    })),
  };
}

function toContentPart(part: UserContentPart): ChatCompletionContentPart {
  switch (part.type) {
    case "text":
      return { type: "text", text: part.text };
    case "image":
      return { type: "image_url", image_url: { url: imageURL(part) } };
    case "file":
      return filePart(part);
  }
}

function imageURL(part: ImagePart): string {
  if (/^(https?:|data:)/i.test(part.image)) return part.image;
  if (!part.mediaType) {
    throw new TypeError("An image part with base64 data needs its mediaType (e.g. 'image/png') to be sent to OpenAI.");
  }
  return `data:${part.mediaType};base64,${part.image}`;
}

/** Images go as image_url, wav/mp3 as input_audio, anything else (PDF) as an inline file. */
function filePart(part: FilePart): ChatCompletionContentPart {
  const isURL = /^https?:/i.test(part.data);
  if (part.mediaType.startsWith("image/")) {
    return {
      type: "image_url",
      image_url: { url: isURL || isDataURL(part.data) ? part.data : `data:${part.mediaType};base64,${part.data}` },
    };
  }
  if (isURL) {
    throw new UnsupportedFeatureError(
      `OpenAI chat completions take files as base64 data, not URLs (${part.mediaType}): download the file and pass its data.`,
      { feature: "user-content" },
    );
  }
  const data = base64Of(part.data);
  const audioFormat = { "audio/wav": "wav", "audio/x-wav": "wav", "audio/mpeg": "mp3", "audio/mp3": "mp3" }[
    part.mediaType
  ];
  if (audioFormat === "wav" || audioFormat === "mp3") {
    return { type: "input_audio", input_audio: { data, format: audioFormat } };
  }
  return {
    type: "file",
    file: { file_data: `data:${part.mediaType};base64,${data}`, ...(part.filename ? { filename: part.filename } : {}) },
  };
}

function isDataURL(value: string): boolean {
  return /^data:/i.test(value);
}

/** A file's data as bare base64: a base64 `data:` URL (which the other adapters take too) gives its payload. */
function base64Of(data: string): string {
  const header = /^data:[^,]*;base64,/i.exec(data);
  return header ? data.slice(header[0].length) : data;
}
