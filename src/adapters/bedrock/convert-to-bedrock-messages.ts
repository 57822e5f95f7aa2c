import type {
  ContentBlock,
  DocumentFormat,
  ImageFormat,
  Message as BedrockMessage,
  SystemContentBlock,
  ToolResultContentBlock,
} from "@aws-sdk/client-bedrock-runtime";
import { UnsupportedFeatureError } from "../../core/errors/unsupported-feature-error.js";
import type { AssistantMessage, FilePart, ImagePart, Message, ToolMessage, UserMessage } from "../../core/messages.js";
import { bedrockDocumentNamer } from "./bedrock-document-names.js";

export interface BedrockPrompt {
  system: SystemContentBlock[];
  messages: BedrockMessage[];
}

export interface ConvertOptions {
  /**
   * Whether the request carries `toolConfig`. Converse refuses `toolUse`/`toolResult` blocks without
   * it, so when no tools are sent (tool_choice "none", the response-format rung) past calls and
   * results travel as text.
   */
  toolBlocks: boolean;
  /** Positions of the messages a `cachePoint` block follows (placed by core for `promptCache: "auto"`). @default none */
  cachePoints?: ReadonlySet<number> | undefined;
}

const cachePoint = { cachePoint: { type: "default" } } as const;

/**
 * keelson messages → Converse `system` and `messages`: system prompts lifted out, consecutive
 * turns of one role merged (tool results become `toolResult` blocks in one user turn), assistant
 * turns kept whole (reasoning with its signature, text, `toolUse` with its id). Reasoning goes back
 * only when Claude signed it (on Bedrock or Anthropic's API, whose thinking blocks and signatures
 * are Claude's alike): another provider's reasoning, signed or not, is left out of the request.
 */
export function convertToBedrockMessages(messages: readonly Message[], options: ConvertOptions): BedrockPrompt {
  const system: SystemContentBlock[] = [];
  const turns: BedrockMessage[] = [];
  const documentName = bedrockDocumentNamer();
  const push = (role: "user" | "assistant", content: ContentBlock[]) => {
    if (content.length === 0) return;
    const last = turns[turns.length - 1];
    if (last?.role === role) last.content = [...(last.content ?? []), ...content];
    else turns.push({ role, content });
  };
  messages.forEach((message, position) => {
    let content: ContentBlock[];
    switch (message.role) {
      case "system":
        if (message.content.trim() === "") return;
        system.push({ text: message.content });
        if (options.cachePoints?.has(position)) system.push(cachePoint);
        return;
      case "user":
        push("user", (content = userContent(message, documentName)));
        break;
      case "assistant":
        push("assistant", (content = assistantContent(message, options)));
        break;
      case "tool":
        push("user", (content = toolResult(message, options, documentName)));
        break;
    }
    if (content.length > 0 && options.cachePoints?.has(position))
      push(turns.at(-1)!.role as "user" | "assistant", [cachePoint]);
  });
  return { system, messages: turns };
}

function userContent(message: UserMessage, documentName: (filename: string | undefined) => string): ContentBlock[] {
  if (typeof message.content === "string") return textBlock(message.content);
  return message.content.flatMap((part): ContentBlock[] => {
    switch (part.type) {
      case "text":
        return textBlock(part.text);
      case "image":
        return [imageBlock(part)];
      case "file":
        return [documentBlock(part, documentName)];
    }
  });
}

function assistantContent(message: AssistantMessage, options: ConvertOptions): ContentBlock[] {
  if (typeof message.content === "string") return textBlock(message.content);
  return message.content.flatMap((part): ContentBlock[] => {
    switch (part.type) {
      case "text":
        return textBlock(part.text);
      case "reasoning":
        if (part.redactedData !== undefined)
          return [{ reasoningContent: { redactedContent: Buffer.from(part.redactedData, "base64") } }];
        // Bedrock verifies reasoning it is sent back, so only Claude's goes back. Unsigned reasoning
        // (another provider's) cannot pass; neither can an OpenAI Responses item's encrypted content,
        // which also sits in `signature` but comes with the item's id (Claude's blocks have none).
        if (!part.signature || part.id !== undefined) return [];
        return [{ reasoningContent: { reasoningText: { text: part.text, signature: part.signature } } }];
      case "tool-call":
        if (!options.toolBlocks)
          return textBlock(`[called tool ${part.name} (${part.id}) with ${JSON.stringify(part.args)}]`);
        return [{ toolUse: { toolUseId: bedrockToolUseId(part.id), name: part.name, input: part.args as never } }];
    }
  });
}

function toolResult(
  message: ToolMessage,
  options: ConvertOptions,
  documentName: (filename: string | undefined) => string,
): ContentBlock[] {
  const parts =
    typeof message.content === "string" ? [{ type: "text" as const, text: message.content }] : message.content;
  const text = parts.flatMap((part) => (part.type === "text" ? [part.text] : [])).join("\n");
  const media = parts.flatMap((part) =>
    part.type === "text" ? [] : userContent({ role: "user", content: [part] }, documentName),
  );
  if (!options.toolBlocks) {
    // Without toolConfig, no toolResult block: the text says whose result it is, images and files follow it.
    return [
      { text: `[result of tool ${message.toolName} (${message.toolCallId})]: ${toolOutputText(text)}` },
      ...media,
    ];
  }
  const content: ToolResultContentBlock[] = [];
  if (text.trim() !== "" || media.length === 0) content.push({ text: toolOutputText(text) });
  for (const block of media) {
    if (block.image) content.push({ image: block.image });
    else if (block.document) content.push({ document: block.document });
  }
  return [{ toolResult: { toolUseId: bedrockToolUseId(message.toolCallId), content } }];
}

/** Converse refuses blank text, a lone space included: a tool that printed nothing says so. */
function toolOutputText(content: string): string {
  return content.trim() === "" ? "(no output)" : content;
}

const acceptedToolUseId = /^[a-zA-Z0-9_-]{1,64}$/;

/**
 * A tool call's id as Converse takes it (1–64 of `[a-zA-Z0-9_-]`). Another provider's id that does
 * not fit (Kimi K2's `functions.get_weather:0`, an over-long one) is rewritten the same way for the
 * call and its result, with a hash of the original so two ids never become one.
 */
export function bedrockToolUseId(id: string): string {
  if (acceptedToolUseId.test(id)) return id;
  const hash = fnv1a(id).toString(36);
  return `${id.replace(/[^a-zA-Z0-9_-]/g, "_").slice(0, 64 - hash.length - 1)}_${hash}`;
}

function fnv1a(text: string): number {
  let hash = 0x811c9dc5;
  for (let index = 0; index < text.length; index++) {
    hash ^= text.charCodeAt(index);
    hash = Math.imul(hash, 0x01000193) >>> 0;
  }
  return hash;
}

/** Converse refuses blank text blocks. */
function textBlock(text: string): ContentBlock[] {
  return text.trim() === "" ? [] : [{ text }];
}

const imageFormats: Record<string, ImageFormat> = {
  "image/png": "png",
  "image/jpeg": "jpeg",
  "image/jpg": "jpeg",
  "image/gif": "gif",
  "image/webp": "webp",
};

function imageBlock(part: ImagePart): ContentBlock {
  if (part.image.startsWith("s3://")) {
    return {
      image: {
        format: imageFormat(part.mediaType ?? mediaTypeFromPath(part.image)),
        source: { s3Location: { uri: part.image } },
      },
    };
  }
  const { data, mediaType } = splitData(part.image, part.mediaType);
  return { image: { format: imageFormat(mediaType), source: { bytes: data } } };
}

function imageFormat(mediaType: string | undefined): ImageFormat {
  const format = mediaType === undefined ? undefined : imageFormats[mediaType.toLowerCase()];
  if (!format) {
    throw new TypeError(
      `Bedrock takes png, jpeg, gif or webp images; got media type ${JSON.stringify(mediaType)}. Set ImagePart.mediaType.`,
    );
  }
  return format;
}

const documentFormats: Record<string, DocumentFormat> = {
  "application/pdf": "pdf",
  "text/csv": "csv",
  "application/msword": "doc",
  "application/vnd.openxmlformats-officedocument.wordprocessingml.document": "docx",
  "application/vnd.ms-excel": "xls",
  "application/vnd.openxmlformats-officedocument.spreadsheetml.sheet": "xlsx",
  "text/html": "html",
  "text/plain": "txt",
  "text/markdown": "md",
};

function documentBlock(part: FilePart, documentName: (filename: string | undefined) => string): ContentBlock {
  const format = documentFormats[part.mediaType.toLowerCase()];
  if (!format) {
    throw new TypeError(
      `Bedrock takes pdf, csv, doc, docx, xls, xlsx, html, txt or md documents; got media type ${JSON.stringify(part.mediaType)}.`,
    );
  }
  const name = documentName(part.filename);
  if (part.data.startsWith("s3://")) return { document: { format, name, source: { s3Location: { uri: part.data } } } };
  const { data } = splitData(part.data, part.mediaType);
  return { document: { format, name, source: { bytes: data } } };
}

/** Bytes of a `data:` URL or bare base64; Bedrock cannot fetch http(s) URLs. */
function splitData(value: string, mediaType: string | undefined): { data: Uint8Array; mediaType: string | undefined } {
  const match = /^data:([^;,]+)?(?:;[^,]*)?;base64,(.*)$/s.exec(value);
  if (match) return { data: Buffer.from(match[2] ?? "", "base64"), mediaType: mediaType ?? match[1] };
  if (/^https?:\/\//i.test(value)) {
    throw new UnsupportedFeatureError(
      "Bedrock cannot fetch images or files by http(s) URL: pass base64 data, a data: URL or an s3:// URI.",
      {
        feature: "user-content",
        providerId: "bedrock",
      },
    );
  }
  return { data: Buffer.from(value, "base64"), mediaType };
}

function mediaTypeFromPath(path: string): string | undefined {
  const extension = /\.([a-z0-9]+)$/i.exec(path)?.[1]?.toLowerCase();
  return extension === undefined ? undefined : `image/${extension === "jpg" ? "jpeg" : extension}`;
}
