import type { Message as OllamaMessage, ToolCall as OllamaToolCall } from "ollama";
import { UnsupportedFeatureError } from "../../core/errors/unsupported-feature-error.js";
import {
  hasToolResultMedia,
  type ImagePart,
  type Message,
  type ToolMessage,
  type UserContentPart,
} from "../../core/messages.js";

/**
 * keelson messages → Ollama `/api/chat` messages. Assistant turns go back whole (text, `thinking`,
 * `tool_calls` with arguments as objects); tool results carry `tool_name`, which is how Ollama
 * pairs a result with its call (it has no call ids). Images go as bytes: the SDK base64-encodes
 * them, and a string it would first try to read as a local file path.
 */
export function convertToOllamaMessages(messages: readonly Message[]): OllamaMessage[] {
  const converted: OllamaMessage[] = [];
  // A loop, not map(): 500 messages cost 57k instructions less a call (2.2 % of history-500, npm run bench:instructions).
  for (const message of messages) {
    converted.push(convertMessage(message));
    if (message.role === "tool" && hasToolResultMedia(message)) converted.push(toolResultMedia(message));
  }
  return converted;
}

function convertMessage(message: Message): OllamaMessage {
  switch (message.role) {
    case "system":
      return { role: "system", content: message.content };
    case "tool":
      return { role: "tool", content: toolResultText(message), tool_name: message.toolName };
    case "user":
      return typeof message.content === "string"
        ? { role: "user", content: message.content }
        : userMessage(message.content);
    case "assistant": {
      if (typeof message.content === "string") return { role: "assistant", content: message.content };
      let content = "";
      let thinking = "";
      const toolCalls: OllamaToolCall[] = [];
      for (const part of message.content) {
        if (part.type === "text") content += part.text;
        else if (part.type === "reasoning") thinking += part.text;
        else toolCalls.push({ function: { name: part.name, arguments: part.args } });
      }
      const converted: OllamaMessage = { role: "assistant", content };
      if (thinking !== "") converted.thinking = thinking;
      if (toolCalls.length > 0) converted.tool_calls = toolCalls;
      return converted;
    }
  }
}

/** A tool result's text, its text parts a line apart. */
function toolResultText(message: ToolMessage): string {
  if (typeof message.content === "string") return message.content;
  return message.content.flatMap((part) => (part.type === "text" ? [part.text] : [])).join("\n");
}

/**
 * A tool result's images, in a user message right after it: Ollama's tool message takes text only
 * (the call's `warning` says so).
 */
function toolResultMedia(message: ToolMessage): OllamaMessage {
  const media = typeof message.content === "string" ? [] : message.content.filter((part) => part.type !== "text");
  const note = `[images returned by tool ${message.toolName}]`;
  return userMessage([{ type: "text", text: note }, ...media]);
}

/** A user message's parts as one message: its text parts a line apart (Ollama takes one string), its images as bytes. */
function userMessage(parts: readonly UserContentPart[]): OllamaMessage {
  const texts: string[] = [];
  const images: Uint8Array[] = [];
  for (const part of parts) {
    if (part.type === "text") texts.push(part.text);
    else if (part.type === "image") images.push(imageBytes(part));
    else if (part.mediaType.startsWith("image/")) images.push(imageBytes({ type: "image", image: part.data }));
    else throw unsupported(`a '${part.mediaType}' file part`);
  }
  const content = texts.join("\n");
  return images.length > 0 ? { role: "user", content, images } : { role: "user", content };
}

function imageBytes(part: ImagePart): Uint8Array {
  const { image } = part;
  if (image.startsWith("data:")) {
    const comma = image.indexOf(",");
    if (comma === -1 || !image.slice(0, comma).endsWith(";base64")) throw unsupported("a data: URL that is not base64");
    return Buffer.from(image.slice(comma + 1), "base64");
  }
  if (/^[a-z][a-z0-9+.-]*:\/\//i.test(image)) throw unsupported(`an image URL (${image.split(":")[0]}:)`);
  return Buffer.from(image, "base64");
}

function unsupported(what: string): UnsupportedFeatureError {
  return new UnsupportedFeatureError(
    `Ollama takes text and inline images only, not ${what}: send images as base64 data or a data: URL.`,
    { feature: "user-content", providerId: "ollama" },
  );
}
