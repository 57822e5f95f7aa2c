/** A system instruction. */
export interface SystemMessage {
  role: "system";
  content: string;
}

export interface TextPart {
  type: "text";
  text: string;
}

/**
 * An image, as a URL (`https:` or `data:`) or base64 data with its media type. A base64 `data:` URL
 * is read by every adapter; an `https:` URL only by OpenAI, Azure OpenAI and Anthropic, which fetch
 * it: Ollama and Bedrock refuse one with an `UnsupportedFeatureError` before any request (Bedrock takes an
 * `s3://` URI instead).
 */
export interface ImagePart {
  type: "image";
  /** A URL, a `data:` URL, or base64 data (then `mediaType` is required). */
  image: string;
  mediaType?: string;
}

/**
 * A file (PDF, audio, …) as base64 data or a base64 `data:` URL, which every adapter reads (Bedrock
 * takes an `s3://` URI too). An `http(s):` URL is refused with an `UnsupportedFeatureError` before any
 * request, except for an `image/*` file on OpenAI and Azure OpenAI (sent as an image URL).
 */
export interface FilePart {
  type: "file";
  data: string;
  mediaType: string;
  filename?: string;
}

export type UserContentPart = TextPart | ImagePart | FilePart;

export interface UserMessage {
  role: "user";
  content: string | UserContentPart[];
}

export interface ReasoningPart {
  type: "reasoning";
  text: string;
  /**
   * Provider-issued signature that some providers need to receive back: Anthropic's (direct or on
   * Bedrock) thinking signature, or the OpenAI Responses reasoning item's `encrypted_content`.
   */
  signature?: string;
  /**
   * The provider's id of the reasoning item this part belongs to (OpenAI Responses `rs_…`), sent
   * back with it. Consecutive parts with one id are the summary parts of one item.
   */
  id?: string;
  /**
   * Reasoning the provider sent encrypted (Claude's redacted thinking, Bedrock's `redactedContent`),
   * as base64, to be sent back as it came; `text` is then empty.
   */
  redactedData?: string;
}

/**
 * One tool call, as the model asked for it. `args` is always a parsed object; given typed tools,
 * `create` returns calls whose `name` is the tool's literal name and whose `args` are its argument type.
 */
export interface ToolCall<Name extends string = string, Args = Record<string, unknown>> {
  type: "tool-call";
  id: string;
  name: Name;
  args: Args;
  /**
   * Provider-issued signature sent back with the call on the next turn, unchanged: Gemini's
   * `thoughtSignature` on a `functionCall` part (Gemini refuses a function-call turn without it).
   */
  signature?: string;
}

export type AssistantContentPart = TextPart | ReasoningPart | ToolCall;

export interface AssistantMessage {
  role: "assistant";
  content: string | AssistantContentPart[];
}

/**
 * A part of a tool's result: text, an image (a screenshot, a chart) or a file. Anthropic, Bedrock and
 * OpenAI Responses take images in the tool result itself; Chat Completions and Ollama take only text
 * there, so their adapters send the text as the tool message and the images and files in a user
 * message right after it (a `warning` event says so).
 */
export type ToolResultPart = TextPart | ImagePart | FilePart;

/** A tool's result, paired with the call by `toolCallId`: a string, or text, image and file parts. */
export interface ToolMessage {
  role: "tool";
  toolCallId: string;
  toolName: string;
  content: string | ToolResultPart[];
}

export type Message = SystemMessage | UserMessage | AssistantMessage | ToolMessage;

/** The text parts of a message, joined. */
export function messageText(message: Message): string {
  if (typeof message.content === "string") return message.content;
  let text = "";
  for (const part of message.content) if (part.type === "text") text += part.text;
  return text;
}

/** Whether a tool message carries an image or a file (not only text). */
export function hasToolResultMedia(message: ToolMessage): boolean {
  return typeof message.content !== "string" && message.content.some((part) => part.type !== "text");
}

/** The tool calls of an assistant message. */
export function messageToolCalls(message: AssistantMessage): ToolCall[] {
  if (typeof message.content === "string") return [];
  return message.content.filter((part): part is ToolCall => part.type === "tool-call");
}
