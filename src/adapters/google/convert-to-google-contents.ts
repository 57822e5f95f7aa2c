import type { Content, FunctionResponse, Part } from "@google/genai";
import type { AssistantMessage, FilePart, Message, ToolMessage, UserMessage } from "../../core/messages.js";

export interface GooglePrompt {
  /** The system messages' text, as `systemInstruction` parts (undefined when there is none). */
  systemInstruction: { parts: Part[] } | undefined;
  contents: Content[];
}

/**
 * keelson messages → Gemini's `systemInstruction` and `contents`: system prompts lifted out, the
 * assistant's turns as `model` turns, tool results as `functionResponse` parts of a `user` turn,
 * consecutive turns of one role merged. Every `thoughtSignature` goes back where it came from: a
 * tool call's on its `functionCall` part, a thought's on its `thought` part, and a signature that
 * came on an answer part (a reasoning part with no text) on the turn's text. Reasoning another
 * provider signed (an `id`, redacted data) is left out. `toolParts: false` (no tools in the request)
 * sends past calls and results as text, since Gemini reads a `functionCall` only beside its declaration.
 */
export function convertToGoogleContents(messages: readonly Message[], toolParts: boolean): GooglePrompt {
  const system: Part[] = [];
  const contents: Content[] = [];
  const push = (role: "user" | "model", parts: Part[]) => {
    if (parts.length === 0) return;
    const last = contents[contents.length - 1];
    if (last?.role === role) last.parts!.push(...parts);
    else contents.push({ role, parts });
  };
  for (const message of messages) {
    switch (message.role) {
      case "system":
        if (message.content.trim() !== "") system.push({ text: message.content });
        break;
      case "user":
        push("user", userParts(message));
        break;
      case "assistant":
        push("model", modelParts(message, toolParts));
        break;
      case "tool":
        push("user", toolResultParts(message, toolParts));
        break;
    }
  }
  return { systemInstruction: system.length === 0 ? undefined : { parts: system }, contents };
}

function userParts(message: UserMessage): Part[] {
  // An empty user message stays a turn: a conversation must open with one.
  if (typeof message.content === "string") return [{ text: message.content }];
  return message.content.map((part): Part => {
    switch (part.type) {
      case "text":
        return { text: part.text };
      case "image":
        return mediaPart(part.image, part.mediaType, "ImagePart.mediaType");
      case "file":
        return filePart(part);
    }
  });
}

function modelParts(message: AssistantMessage, toolParts: boolean): Part[] {
  if (typeof message.content === "string") return message.content === "" ? [] : [{ text: message.content }];
  const parts: Part[] = [];
  // A signature that came on an answer part, waiting for the turn's text.
  let answerSignature: string | undefined;
  const flush = () => {
    if (answerSignature !== undefined) parts.push({ text: "", thoughtSignature: answerSignature });
    answerSignature = undefined;
  };
  for (const part of message.content) {
    switch (part.type) {
      case "reasoning":
        if (part.id !== undefined || part.redactedData !== undefined) break;
        if (part.text === "") {
          if (part.signature) {
            flush();
            answerSignature = part.signature;
          }
          break;
        }
        parts.push({ text: part.text, thought: true, ...(part.signature ? { thoughtSignature: part.signature } : {}) });
        break;
      case "text":
        if (part.text === "" && answerSignature === undefined) break;
        parts.push({
          text: part.text,
          ...(answerSignature === undefined ? {} : { thoughtSignature: answerSignature }),
        });
        answerSignature = undefined;
        break;
      case "tool-call":
        flush();
        if (!toolParts) {
          parts.push({ text: `[called tool ${part.name} (${part.id}) with ${JSON.stringify(part.args)}]` });
          break;
        }
        parts.push({
          functionCall: { name: part.name, args: part.args },
          ...(part.signature ? { thoughtSignature: part.signature } : {}),
        });
        break;
    }
  }
  flush();
  return parts;
}

/**
 * A tool's result as a `functionResponse` part: its text as `response.output`, its images and files
 * as the response's own `parts` (inline data, or a file URI), which Gemini reads beside the text.
 * Without tools in the request, the text and then the media as plain parts.
 */
function toolResultParts(message: ToolMessage, toolParts: boolean): Part[] {
  const content = message.content;
  const text =
    typeof content === "string" ? content : content.map((part) => (part.type === "text" ? part.text : "")).join("");
  const media = typeof content === "string" ? [] : content.filter((part) => part.type !== "text");
  const mediaParts = media.map((part) =>
    part.type === "image"
      ? mediaPart(part.image, part.mediaType, "ImagePart.mediaType")
      : mediaPart(part.data, part.mediaType, "FilePart.mediaType"),
  );
  if (!toolParts) {
    return [{ text: `[result of tool ${message.toolName} (${message.toolCallId})]: ${text}` }, ...mediaParts];
  }
  const functionResponse: FunctionResponse = { name: message.toolName, response: { output: text } };
  if (mediaParts.length > 0) {
    functionResponse.parts = mediaParts.map((part) =>
      part.inlineData ? { inlineData: part.inlineData } : { fileData: part.fileData! },
    );
  }
  return [{ functionResponse }];
}

function filePart(part: FilePart): Part {
  return mediaPart(part.data, part.mediaType, "FilePart.mediaType");
}

/** An image or file: base64 (a `data:` URL or bare) inline, a URL as `fileData` (a `gs://` or an uploaded file's URI). */
function mediaPart(value: string, mediaType: string | undefined, field: string): Part {
  const match = /^data:([^;,]+)?(?:;[^,]*)?;base64,(.*)$/s.exec(value);
  if (match) {
    const mimeType = mediaType ?? match[1];
    if (mimeType === undefined) throw new TypeError(`Gemini needs the media type of inline data: set ${field}.`);
    return { inlineData: { mimeType, data: match[2] ?? "" } };
  }
  if (/^(https?|gs):\/\//i.test(value)) {
    return { fileData: { fileUri: value, ...(mediaType === undefined ? {} : { mimeType: mediaType }) } };
  }
  if (mediaType === undefined) throw new TypeError(`Gemini needs the media type of base64 data: set ${field}.`);
  return { inlineData: { mimeType: mediaType, data: value } };
}
