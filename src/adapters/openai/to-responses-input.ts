import type {
  ResponseInputContent,
  ResponseInputItem,
  ResponseReasoningItem,
} from "openai/resources/responses/responses";
import type {
  AssistantMessage,
  Message,
  ReasoningPart,
  ToolMessage,
  UserContentPart,
  UserMessage,
} from "../../core/messages.js";

/**
 * keelson messages → Responses API input items. An assistant turn becomes its items in order:
 * each reasoning part with an item id goes back as the `reasoning` item it came as (id, summary,
 * and its `encrypted_content`, kept in the part's `signature`), then the text as an assistant
 * message, then one `function_call` per tool call; a tool message is a `function_call_output`.
 * Reasoning without an item id (another provider's) cannot be sent back to OpenAI and is left out.
 */
export function toResponsesInput(messages: readonly Message[]): ResponseInputItem[] {
  const items: ResponseInputItem[] = [];
  for (const message of messages) {
    switch (message.role) {
      case "system":
        items.push({ role: "system", content: message.content });
        break;
      case "user":
        items.push({ role: "user", content: userContent(message) });
        break;
      case "assistant":
        items.push(...assistantItems(message));
        break;
      case "tool":
        items.push({ type: "function_call_output", call_id: message.toolCallId, output: toolOutput(message) });
        break;
    }
  }
  return items;
}

/** A tool's result: its string, or its parts as the input items a function_call_output takes (images included). */
function toolOutput(message: ToolMessage): string | ResponseInputContent[] {
  return typeof message.content === "string" ? message.content : contentItems(message.content);
}

function userContent(message: UserMessage): string | ResponseInputContent[] {
  return typeof message.content === "string" ? message.content : contentItems(message.content);
}

function contentItems(parts: readonly UserContentPart[]): ResponseInputContent[] {
  return parts.map((part): ResponseInputContent => {
    switch (part.type) {
      case "text":
        return { type: "input_text", text: part.text };
      case "image":
        return { type: "input_image", detail: "auto", image_url: imageURL(part.image, part.mediaType) };
      case "file":
        if (/^https?:\/\//i.test(part.data)) return { type: "input_file", file_url: part.data };
        return {
          type: "input_file",
          file_data: part.data.startsWith("data:") ? part.data : `data:${part.mediaType};base64,${part.data}`,
          ...(part.filename === undefined ? {} : { filename: part.filename }),
        };
    }
  });
}

function imageURL(image: string, mediaType: string | undefined): string {
  if (/^(?:https?|data):/i.test(image)) return image;
  if (mediaType === undefined) throw new TypeError("An image given as base64 data needs its mediaType.");
  return `data:${mediaType};base64,${image}`;
}

function assistantItems(message: AssistantMessage): ResponseInputItem[] {
  if (typeof message.content === "string") {
    return message.content === "" ? [] : [{ role: "assistant", content: message.content }];
  }
  const reasoning: ResponseInputItem[] = [];
  let text = "";
  const calls: ResponseInputItem[] = [];
  for (const part of message.content) {
    if (part.type === "reasoning") {
      if (part.id !== undefined) reasoning.push(reasoningItem(part, part.id));
    } else if (part.type === "text") text += part.text;
    else {
      calls.push({ type: "function_call", call_id: part.id, name: part.name, arguments: JSON.stringify(part.args) });
    }
  }
  return [...reasoning, ...(text === "" ? [] : [{ role: "assistant" as const, content: text }]), ...calls];
}

function reasoningItem(part: ReasoningPart, id: string): ResponseReasoningItem {
  return {
    type: "reasoning",
    id,
    summary: part.text === "" ? [] : [{ type: "summary_text", text: part.text }],
    ...(part.signature ? { encrypted_content: part.signature } : {}),
  };
}
