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
  for (let index = 0; index < messages.length; index++) validateMessage(messages[index]!, index);
  if (input.tools !== undefined && !Array.isArray(input.tools)) {
    throw new TypeError("input.tools must be an array of tools (see defineTool).");
  }
  if (input.maxRetries !== undefined && !(Number.isInteger(input.maxRetries) && input.maxRetries >= 0)) {
    throw new TypeError(`input.maxRetries must be a non-negative integer, got ${input.maxRetries}.`);
  }
  if (input.timeout !== undefined && !(input.timeout > 0)) {
    throw new TypeError(`input.timeout must be a positive number of milliseconds, got ${input.timeout}.`);
  }
  if (input.signal !== undefined && !(input.signal instanceof AbortSignal)) {
    throw new TypeError("input.signal must be an AbortSignal.");
  }
}

/** One message's checks, by role (a switch, not a lookup: this runs for every message of every call). */
function validateMessage(message: Message, index: number): void {
  if (message === null || typeof message !== "object") throw noRole(index);
  const { content } = message;
  switch (message.role) {
    case "system":
      if (typeof content !== "string") throw new TypeError(`input.messages[${index}]: a system message's content must be a string.`);
      return;
    case "user":
    case "assistant":
      if (typeof content !== "string" && !Array.isArray(content)) throw notContent(index);
      return;
    case "tool":
      if (typeof content !== "string" && !Array.isArray(content)) throw notContent(index);
      if (typeof message.toolCallId !== "string" || typeof message.toolName !== "string") {
        throw new TypeError(`input.messages[${index}] is a tool result: it needs toolCallId and toolName (from the tool call it answers).`);
      }
      return;
    default:
      throw noRole(index);
  }
}

function noRole(index: number): TypeError {
  return new TypeError(`input.messages[${index}] must have role "system", "user", "assistant" or "tool".`);
}

function notContent(index: number): TypeError {
  return new TypeError(`input.messages[${index}].content must be a string or an array of parts.`);
}
