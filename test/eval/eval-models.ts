import type { ChatModelOptions, ProviderInput } from "../../src/index.js";
import { ScriptedChatModel, rawStep, textStep, toolCallStep, type ScriptedStep } from "../../src/testing/index.js";

/** The rung a provider input was sent on, as a scripted "provider" can tell. */
export function rungOf(input: ProviderInput): "native" | "response-format" | "prompt" {
  if (input.responseFormat?.type === "json-schema") return "response-format";
  if (input.tools !== undefined) return "native";
  return "prompt";
}

/** The case's question (the first user message) and whether keelson is re-asking. */
export function questionOf(input: ProviderInput): { question: string; reAsk: boolean } {
  const users = input.messages.filter((message) => message.role === "user");
  const text = (content: unknown) => (typeof content === "string" ? content : JSON.stringify(content));
  return {
    question: text(users[0]?.content),
    reAsk: users.some((message) => text(message.content).startsWith("Your previous reply could not be used")),
  };
}

export const unionReply = (name: string, parameters: Record<string, unknown>, options: { delayMs?: number } = {}) =>
  rawStep(JSON.stringify({ name, parameters }), options);

/** A factory of scripted models that answer every request with `answer(input)` (a script of 200 such steps). */
export function oracle(answer: (input: ProviderInput) => ScriptedStep | Promise<ScriptedStep>, modelId = "oracle") {
  return (options: ChatModelOptions) =>
    new ScriptedChatModel(
      Array.from({ length: 200 }, () => (input: ProviderInput) => answer(input)),
      { ...options, modelId },
    );
}

export { rawStep, textStep, toolCallStep };
