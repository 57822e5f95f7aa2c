import { readTimeout } from "../budgets/call-timeout.js";
import type { ChatModelInput } from "../input.js";
import type { Message } from "../messages.js";

/** Eager checks of a call's input, each failing with a TypeError that says what to change. */
export function validateInput(input: ChatModelInput): void {
  if (input === null || typeof input !== "object") {
    throw new TypeError("Expected the call input { messages, tools?, toolChoice?, … }.");
  }
  const { messages } = input;
  if (!Array.isArray(messages) || messages.length === 0) {
    throw new TypeError("input.messages must be a non-empty array, e.g. [{ role: 'user', content: 'Hi' }].");
  }
  for (let index = 0; index < messages.length; index++) {
    const message = messages[index]!;
    validateMessage(message, index);
    if (message.role === "tool") checkAnswersACall(messages, index, message.toolCallId);
  }
  if (input.tools !== undefined && !Array.isArray(input.tools)) {
    throw new TypeError("input.tools must be an array of tools (see defineTool).");
  }
  if (input.maxRetries !== undefined && !(Number.isInteger(input.maxRetries) && input.maxRetries >= 0)) {
    throw new TypeError(`input.maxRetries must be a non-negative integer, got ${input.maxRetries}.`);
  }
  readTimeout(input.timeout, "input.timeout");
  if (input.signal !== undefined && !(input.signal instanceof AbortSignal)) {
    throw new TypeError("input.signal must be an AbortSignal.");
  }
}

/**
 * A tool result must answer a tool call of an earlier assistant message: a provider answers 400
 * otherwise, so an agent's test fails here rather than in production. The search runs back from
 * the result, which usually follows its call closely.
 */
function checkAnswersACall(messages: readonly Message[], index: number, id: string): void {
  const earlier: string[] = [];
  for (let at = index - 1; at >= 0; at--) {
    const message = messages[at]!;
    if (message.role !== "assistant" || typeof message.content === "string") continue;
    for (const part of message.content) {
      if (part.type !== "tool-call") continue;
      if (part.id === id) return;
      earlier.push(part.id);
    }
  }
  const known =
    earlier.length === 0
      ? "no earlier message has a tool call"
      : `the earlier tool calls are ${earlier.map((known) => JSON.stringify(known)).join(", ")}`;
  throw new TypeError(
    `input.messages[${index}] is a tool result for toolCallId ${JSON.stringify(id)}, which matches no earlier tool call (${known}). ` +
      "Append the assistant message that made the call (output.message) before its results, and give each result its call's id (toolCallId: call.id); a provider refuses the request otherwise.",
  );
}

/** One message's checks, by role (a switch, not a lookup: this runs for every message of every call). */
function validateMessage(message: Message, index: number): void {
  if (message === null || typeof message !== "object") throw noRole(index);
  const { content } = message;
  switch (message.role) {
    case "system":
      if (typeof content !== "string") throw messageError(index, ": a system message's content must be a string.");
      return;
    case "user":
    case "assistant":
      if (typeof content === "string") return;
      if (!Array.isArray(content)) throw notContent(index);
      for (let part = 0; part < content.length; part++) validatePart(message.role, content[part], index, part);
      return;
    case "tool":
      if (Array.isArray(content)) {
        for (let part = 0; part < content.length; part++) validatePart("tool", content[part], index, part);
      } else if (typeof content !== "string") {
        throw messageError(
          index,
          " is a tool result: its content must be a string (JSON.stringify the tool's result) or text, image and file parts.",
        );
      }
      if (typeof message.toolCallId !== "string" || typeof message.toolName !== "string") {
        throw messageError(
          index,
          " is a tool result: it needs toolCallId and toolName (from the tool call it answers).",
        );
      }
      return;
    default:
      throw noRole(index);
  }
}

/** A content part's type and the fields an adapter reads from it. */
function validatePart(role: "user" | "assistant" | "tool", part: unknown, index: number, at: number): void {
  const where = `input.messages[${index}].content[${at}]`;
  if (part === null || typeof part !== "object") throw new TypeError(`${where} must be a content part object.`);
  const fields = part as Record<string, unknown>;
  switch (fields.type) {
    case "text":
      if (typeof fields.text !== "string") throw new TypeError(`${where} is a text part: it needs text (a string).`);
      return;
    case "image":
      if (role !== "assistant" && typeof fields.image === "string") return;
      break;
    case "file":
      if (role !== "assistant" && typeof fields.data === "string" && typeof fields.mediaType === "string") return;
      break;
    case "reasoning":
      if (
        role === "assistant" &&
        typeof fields.text === "string" &&
        (fields.redactedData === undefined || typeof fields.redactedData === "string")
      )
        return;
      break;
    case "tool-call": {
      if (role !== "assistant") break;
      const { args } = fields;
      if (typeof fields.id !== "string" || typeof fields.name !== "string") {
        throw new TypeError(`${where} is a tool call: it needs id and name (strings).`);
      }
      if (args === null || typeof args !== "object" || Array.isArray(args)) {
        throw new TypeError(`${where} is a tool call: its args must be an object (JSON.parse a JSON string first).`);
      }
      return;
    }
  }
  const shapes =
    role !== "assistant"
      ? "{ type: 'text', text }, { type: 'image', image, mediaType? } or { type: 'file', data, mediaType }"
      : "{ type: 'text', text }, { type: 'reasoning', text } or { type: 'tool-call', id, name, args }";
  throw new TypeError(`${where} is not a ${role} content part: use ${shapes}.`);
}

function noRole(index: number): TypeError {
  return messageError(index, ' must have role "system", "user", "assistant" or "tool".');
}

function notContent(index: number): TypeError {
  return messageError(index, ".content must be a string or an array of parts.");
}

/** `input.messages[index]` and what is wrong with it. */
function messageError(index: number, fault: string): TypeError {
  return new TypeError(`input.messages[${index}]${fault}`);
}
