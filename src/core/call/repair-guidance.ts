import type { ChatModelError } from "../errors/chat-model-error.js";
import { EmptyResponseError } from "../errors/empty-response-error.js";
import { StructuredOutputError } from "../errors/structured-output-error.js";
import { ToolCallError } from "../errors/tool-call-error.js";
import type { Message } from "../messages.js";
import type { ProviderTool } from "../input.js";
import { markTemporary } from "../prompt-cache/temporary-messages.js";

/** How a re-ask's user turn begins (the scripted model names a re-ask it was not scripted for by it). */
export const reAskLead = "Your previous reply could not be used: ";

/**
 * The temporary messages of a re-ask: the unusable reply as the assistant's turn, then a user turn
 * naming the problem and the tools. They live only in the provider input of the next attempt.
 */
export function repairGuidance(error: ChatModelError, tools: readonly ProviderTool[]): Message[] {
  const messages: Message[] = [];
  const previous = previousReply(error);
  if (previous) messages.push({ role: "assistant", content: previous });
  const toolList = tools.length
    ? `\nAvailable tools: ${tools.map((tool) => `${tool.name} (arguments schema: ${JSON.stringify(tool.parameters)})`).join("; ")}.`
    : "";
  messages.push({ role: "user", content: `${reAskLead}${problem(error)}${toolList}\nPlease answer again.` });
  return markTemporary(...messages);
}

function previousReply(error: ChatModelError): string | undefined {
  if (ToolCallError.isInstance(error) || StructuredOutputError.isInstance(error)) return error.text || undefined;
  return undefined;
}

function problem(error: ChatModelError): string {
  if (ToolCallError.isInstance(error)) return error.feedback;
  if (StructuredOutputError.isInstance(error)) {
    return `it did not match the required JSON format: ${error.issues.join("; ")}. Reply with only the JSON.`;
  }
  if (EmptyResponseError.isInstance(error)) return "it was empty.";
  return error.message;
}
