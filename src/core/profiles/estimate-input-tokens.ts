import type { ProviderInput } from "../input.js";
import type { Message } from "../messages.js";
import { openAITokenizer, type CountText } from "./openai-tokenizer.js";

/** The model an estimate is for. */
export interface EstimatedModel {
  readonly providerId: string;
  readonly modelId: string;
}

/**
 * Characters per token before any usage was reported, by provider: measured on the recorded
 * fixtures (docs/budgets.md), English prose and JSON schemas alike.
 */
const charsPerToken: Record<string, number> = { anthropic: 3.2, bedrock: 3.5 };
const defaultCharsPerToken = 3.8;
/** The framing each message costs (role, separators), in tokens. */
const perMessage = 4;
/** The framing of the request and of the reply's start, and of each tool's definition. */
const perRequest = 3;
const perTool = 8;
/** The system prompt a provider adds when a request has tools (Anthropic documents 313–346 tokens for Claude's). */
const toolsPrompt: Record<string, number> = { anthropic: 340 };
/** An image or a file: what the provider makes of it varies; a thousand characters' worth is the usual order. */
const attachmentChars = 1000;

/** Ratio estimates against reported input tokens, summed per provider and model over this process. */
const reports = new Map<string, { estimated: number; reported: number }>();

const keyOf = (model: EstimatedModel) => `${model.providerId}\u0000${model.modelId}`;

/**
 * An estimate of the input tokens `input` costs on `model`: counted by the model's own tokenizer
 * for OpenAI's models (gpt-tokenizer, loaded on first use), else the ratio estimate scaled by the
 * usage this process saw reported for the same model.
 */
export async function estimateInputTokens(model: EstimatedModel, input: ProviderInput): Promise<number> {
  const count = usesOpenAITokenizer(model) ? await openAITokenizer(model.modelId) : undefined;
  return count === undefined
    ? correctedEstimate(model, input)
    : framed(input, (message) => count(messageText(message)), count);
}

/** The ratio estimate scaled by the reports so far for this model (reported / estimated, clamped to ×0.1–×10). */
export function correctedEstimate(model: EstimatedModel, input: ProviderInput): number {
  const estimate = ratioEstimate(model, input);
  const report = reports.get(keyOf(model));
  if (report === undefined) return estimate;
  return Math.ceil(estimate * Math.min(10, Math.max(0.1, report.reported / report.estimated)));
}

/** The estimate at the provider's characters-per-token ratio, before any correction (cheap: lengths only). */
export function ratioEstimate(model: EstimatedModel, input: ProviderInput): number {
  const ratio = charsPerToken[model.providerId] ?? defaultCharsPerToken;
  const tools = input.tools !== undefined && input.tools.length > 0 ? (toolsPrompt[model.providerId] ?? 0) : 0;
  return (
    tools +
    framed(
      input,
      (message) => messageLength(message) / ratio,
      (text) => text.length / ratio,
    )
  );
}

/**
 * Takes in a provider's report: the input tokens it counted for a request whose ratio estimate was
 * `estimated`. Reports that cannot be right (zero, negative, not finite) are ignored.
 */
export function learnInputTokens(model: EstimatedModel, estimated: number, reported: number): void {
  if (!(estimated > 0 && reported > 0 && Number.isFinite(estimated) && Number.isFinite(reported))) return;
  const key = keyOf(model);
  const report = reports.get(key) ?? { estimated: 0, reported: 0 };
  report.estimated += estimated;
  report.reported += reported;
  reports.set(key, report);
}

/** Whether the estimate of `model` counts with OpenAI's tokenizer (and so is not corrected by reports). */
export function usesOpenAITokenizer(model: EstimatedModel): boolean {
  return model.providerId === "openai" || model.providerId === "azure-openai";
}

/** Tokens of the messages, tools and response schema, each message and tool with its framing. */
function framed(input: ProviderInput, countMessage: (message: Message) => number, countText: CountText): number {
  let tokens = perRequest;
  for (const message of input.messages) tokens += perMessage + countMessage(message);
  for (const tool of input.tools ?? []) {
    tokens += perTool + countText(`${tool.name} ${tool.description ?? ""} ${JSON.stringify(tool.parameters)}`);
  }
  if (input.responseFormat?.type === "json-schema") tokens += countText(JSON.stringify(input.responseFormat.schema));
  return Math.ceil(tokens);
}

/** The characters of what a message sends as text (no string is built). */
function messageLength(message: Message): number {
  if (typeof message.content === "string")
    return message.content.length + (message.role === "tool" ? message.toolName.length : 0);
  let length = 0;
  for (const part of message.content) {
    if (part.type === "text" || part.type === "reasoning") length += part.text.length;
    else if (part.type === "tool-call") length += part.name.length + JSON.stringify(part.args ?? {}).length;
    else length += attachmentChars;
  }
  return length;
}

/** What a message sends as text: its text and reasoning, its tool calls' names and arguments, a tool result's name. */
function messageText(message: Message): string {
  if (typeof message.content === "string")
    return message.role === "tool" ? `${message.toolName}\n${message.content}` : message.content;
  const parts: string[] = [];
  for (const part of message.content) {
    if (part.type === "text" || part.type === "reasoning") parts.push(part.text);
    else if (part.type === "tool-call") parts.push(part.name, JSON.stringify(part.args ?? {}));
    else parts.push(" ".repeat(attachmentChars));
  }
  return parts.join("\n");
}
