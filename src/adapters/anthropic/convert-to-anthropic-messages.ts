import type Anthropic from "@anthropic-ai/sdk";
import type { AssistantMessage, FilePart, ImagePart, Message, ToolMessage, UserMessage } from "../../core/messages.js";

type Block = Anthropic.ContentBlockParam;

export interface AnthropicPrompt {
  system: Anthropic.TextBlockParam[];
  messages: Anthropic.MessageParam[];
}

export interface ConvertToAnthropicOptions {
  /**
   * Whether the request carries `tools`. Anthropic refuses `tool_use`/`tool_result` blocks in a
   * request without them, so when none are sent (the response-format and prompt rungs) past calls
   * and their results travel as text.
   */
  toolBlocks: boolean;
  /** Positions (in `messages`) whose last block gets this `cache_control` breakpoint. */
  cacheBreakpoints?: { positions: ReadonlySet<number>; value: Anthropic.CacheControlEphemeral } | undefined;
}

/**
 * keelson messages → the Messages API's `system` and `messages`: system prompts lifted out,
 * consecutive turns of one role merged (tool results become `tool_result` blocks in one user turn),
 * assistant turns kept whole. A `thinking` block (with its signature) and a `redacted_thinking`
 * block go back exactly as they came, before the text and `tool_use` of their turn, as Anthropic
 * demands; reasoning without a signature (another provider's) is left out, since Anthropic would
 * refuse it.
 */
export function convertToAnthropicMessages(
  messages: readonly Message[],
  options: ConvertToAnthropicOptions,
): AnthropicPrompt {
  const system: Anthropic.TextBlockParam[] = [];
  const turns: Anthropic.MessageParam[] = [];
  const push = (role: "user" | "assistant", content: Block[]) => {
    if (content.length === 0) return;
    const last = turns[turns.length - 1];
    if (last?.role === role && Array.isArray(last.content)) last.content.push(...content);
    else turns.push({ role, content });
  };
  const breakpoints = options.cacheBreakpoints;
  messages.forEach((message, position) => {
    let blocks: Block[];
    switch (message.role) {
      case "system":
        if (message.content.trim() === "") return;
        system.push({ type: "text", text: message.content });
        if (breakpoints?.positions.has(position)) system[system.length - 1]!.cache_control = breakpoints.value;
        return;
      case "user":
        blocks = userContent(message);
        push("user", blocks);
        break;
      case "assistant":
        blocks = assistantContent(message, options);
        push("assistant", blocks);
        break;
      case "tool":
        blocks = toolResult(message, options);
        push("user", blocks);
        break;
    }
    const last = blocks[blocks.length - 1];
    if (last && breakpoints?.positions.has(position)) markBlock(last, breakpoints.value);
  });
  return { system, messages: turns };
}

function markBlock(block: Block, value: Anthropic.CacheControlEphemeral): void {
  // Thinking blocks cannot carry a breakpoint; every block keelson sends otherwise can.
  if (block.type === "thinking" || block.type === "redacted_thinking") return;
  (block as { cache_control?: Anthropic.CacheControlEphemeral }).cache_control = value;
}

function userContent(message: UserMessage): Block[] {
  if (typeof message.content === "string") return textBlock(message.content);
  return message.content.flatMap((part): Block[] => {
    switch (part.type) {
      case "text":
        return textBlock(part.text);
      case "image":
        return [imageBlock(part)];
      case "file":
        return [documentBlock(part)];
    }
  });
}

function assistantContent(message: AssistantMessage, options: ConvertToAnthropicOptions): Block[] {
  if (typeof message.content === "string") return textBlock(message.content);
  return message.content.flatMap((part): Block[] => {
    switch (part.type) {
      case "text":
        return textBlock(part.text);
      case "reasoning":
        if (part.redactedData !== undefined) return [{ type: "redacted_thinking", data: part.redactedData }];
        // An OpenAI Responses reasoning item (it has an id) or unsigned reasoning cannot be verified here.
        if (!part.signature || part.id !== undefined) return [];
        return [{ type: "thinking", thinking: part.text, signature: part.signature }];
      case "tool-call":
        if (!options.toolBlocks)
          return textBlock(`[called tool ${part.name} (${part.id}) with ${JSON.stringify(part.args)}]`);
        return [{ type: "tool_use", id: anthropicToolUseId(part.id), name: part.name, input: part.args }];
    }
  });
}

function toolResult(message: ToolMessage, options: ConvertToAnthropicOptions): Block[] {
  const parts =
    typeof message.content === "string" ? [{ type: "text" as const, text: message.content }] : message.content;
  if (!options.toolBlocks) {
    // Without tools, no tool_result block: the text says whose result it is, images and files follow it.
    const text = parts.flatMap((part) => (part.type === "text" ? [part.text] : [])).join("\n");
    const media = parts.flatMap((part) => (part.type === "text" ? [] : userContent({ role: "user", content: [part] })));
    return [{ type: "text", text: `[result of tool ${message.toolName} (${message.toolCallId})]: ${text}` }, ...media];
  }
  const block: Anthropic.ToolResultBlockParam = {
    type: "tool_result",
    tool_use_id: anthropicToolUseId(message.toolCallId),
  };
  if (typeof message.content === "string") {
    // Anthropic refuses an empty text block: a tool that printed nothing sends no content.
    if (message.content !== "") block.content = message.content;
    return [block];
  }
  const content = userContent({ role: "user", content: message.content }) as NonNullable<
    Exclude<Anthropic.ToolResultBlockParam["content"], string>
  >;
  if (content.length > 0) block.content = content;
  return [block];
}

const acceptedToolUseId = /^[a-zA-Z0-9_-]+$/;

/**
 * A tool call's id as Anthropic takes it (`[a-zA-Z0-9_-]+`). Another provider's id that does not
 * fit (Kimi K2's `functions.get_weather:0`) is rewritten the same way for the call and its result,
 * with a hash of the original so that two ids never become one.
 */
export function anthropicToolUseId(id: string): string {
  if (acceptedToolUseId.test(id)) return id;
  let hash = 0x811c9dc5;
  for (let index = 0; index < id.length; index++) {
    hash ^= id.charCodeAt(index);
    hash = Math.imul(hash, 0x01000193) >>> 0;
  }
  return `${id.replace(/[^a-zA-Z0-9_-]/g, "_")}_${hash.toString(36)}`;
}

/** Anthropic refuses empty text blocks. */
function textBlock(text: string): Block[] {
  return text === "" ? [] : [{ type: "text", text }];
}

const imageTypes = new Set(["image/jpeg", "image/png", "image/gif", "image/webp"]);

function imageBlock(part: ImagePart): Block {
  if (/^https?:\/\//i.test(part.image)) return { type: "image", source: { type: "url", url: part.image } };
  const { data, mediaType } = splitData(part.image, part.mediaType);
  const type = mediaType?.toLowerCase() === "image/jpg" ? "image/jpeg" : mediaType?.toLowerCase();
  if (type === undefined || !imageTypes.has(type)) {
    throw new TypeError(
      `Anthropic takes jpeg, png, gif or webp images; got media type ${JSON.stringify(mediaType)}. Set ImagePart.mediaType.`,
    );
  }
  return {
    type: "image",
    source: { type: "base64", media_type: type as "image/png", data },
  };
}

function documentBlock(part: FilePart): Block {
  const mediaType = part.mediaType.toLowerCase();
  if (mediaType === "application/pdf") {
    if (/^https?:\/\//i.test(part.data)) return { type: "document", source: { type: "url", url: part.data } };
    return {
      type: "document",
      source: { type: "base64", media_type: "application/pdf", data: splitData(part.data, mediaType).data },
      ...(part.filename === undefined ? {} : { title: part.filename }),
    };
  }
  if (mediaType === "text/plain") {
    const text = Buffer.from(splitData(part.data, mediaType).data, "base64").toString("utf8");
    return {
      type: "document",
      source: { type: "text", media_type: "text/plain", data: text },
      ...(part.filename === undefined ? {} : { title: part.filename }),
    };
  }
  if (mediaType.startsWith("image/")) return imageBlock({ type: "image", image: part.data, mediaType });
  throw new TypeError(
    `Anthropic takes PDF (application/pdf) and plain-text (text/plain) documents and images; got media type ${JSON.stringify(part.mediaType)}.`,
  );
}

/** The base64 data of a `data:` URL or bare base64. */
function splitData(value: string, mediaType: string | undefined): { data: string; mediaType: string | undefined } {
  const match = /^data:([^;,]+)?(?:;[^,]*)?;base64,(.*)$/s.exec(value);
  if (match) return { data: match[2] ?? "", mediaType: mediaType ?? match[1] };
  return { data: value, mediaType };
}
