// The keelson/openai entry (its SDK is loaded only when a model is built), never an adapter's own files.
import { convertFromOpenAIMessages } from "../adapters/openai/index.js";
import { toolFrom } from "../core/define-tool.js";
import type { AnyTool } from "../core/tool.js";
import type { Message } from "../core/messages.js";
import type { JSONSchema } from "../core/schema/json-schema.js";
import type { EvalCase, EvalExpectation, EvalTool } from "./eval-case.js";

const isObject = (value: unknown): value is Record<string, unknown> =>
  typeof value === "object" && value !== null && !Array.isArray(value);

/** A case from its JSON (a keelson case file, or a bare message list with `tools` given apart), checked. */
export function parseCase(json: unknown, where: string, defaults: { name: string; tools?: EvalTool[] }): EvalCase {
  const fail = (what: string): never => {
    throw new TypeError(`${where}: ${what}`);
  };
  const body = Array.isArray(json) ? { messages: json } : json;
  if (!isObject(body)) fail("a case is a JSON object with `messages` (or a bare list of messages).");
  const raw = body as Record<string, unknown>;
  const name = raw.name === undefined ? defaults.name : raw.name;
  if (typeof name !== "string" || name === "") fail("`name` must be a non-empty string.");
  const tools = raw.tools === undefined ? (defaults.tools ?? []) : parseTools(raw.tools, where);
  const eval_: EvalCase = { name: name as string, messages: parseMessages(raw.messages, where), tools };
  if (raw.toolChoice !== undefined) eval_.toolChoice = parseToolChoice(raw.toolChoice, tools, where);
  if (raw.parallelToolCalls !== undefined) {
    if (typeof raw.parallelToolCalls !== "boolean") fail("`parallelToolCalls` must be true or false.");
    eval_.parallelToolCalls = raw.parallelToolCalls as boolean;
  }
  if (raw.responseFormat !== undefined) {
    if (!isObject(raw.responseFormat)) fail("`responseFormat` must be a JSON Schema object.");
    eval_.responseFormat = raw.responseFormat as JSONSchema;
  }
  if (raw.expect !== undefined) eval_.expect = parseExpectation(raw.expect, where);
  return eval_;
}

/**
 * Tools in any shape `defineTool` takes: `{ name, description?, parameters }` (JSON Schema), OpenAI's
 * `{ type: "function", function }`, or keelson's `{ name, inputSchema }`. A list may sit under `tools`.
 */
export function parseTools(json: unknown, where: string): EvalTool[] {
  const list = isObject(json) && Array.isArray(json.tools) ? json.tools : json;
  if (!Array.isArray(list))
    throw new TypeError(`${where}: tools must be a list of { name, description?, parameters }.`);
  return list.map((entry: unknown, index) => {
    let tool;
    try {
      tool = toolFrom(entry as AnyTool);
    } catch (error) {
      throw new TypeError(`${where}: tool ${index + 1}: ${(error as Error).message}`, { cause: error });
    }
    return {
      name: tool.name,
      ...(tool.description === undefined ? {} : { description: tool.description }),
      parameters: tool.parameters,
    };
  });
}

function parseMessages(json: unknown, where: string): Message[] {
  if (!Array.isArray(json) || json.length === 0) {
    throw new TypeError(`${where}: \`messages\` must be a non-empty list of { role, content } messages.`);
  }
  json.forEach((message: unknown, index) => {
    if (!isObject(message) || !["system", "user", "assistant", "tool", "developer"].includes(message.role as string)) {
      throw new TypeError(`${where}: message ${index + 1} has no role system, user, assistant or tool.`);
    }
  });
  // A history in OpenAI's chat format (the seed's files: tool_calls, tool_call_id) reads as keelson's.
  const openAIStyle = json.some(
    (message: Record<string, unknown>) =>
      "tool_calls" in message || "tool_call_id" in message || message.role === "developer" || message.content === null,
  );
  if (openAIStyle) return convertFromOpenAIMessages(json as Parameters<typeof convertFromOpenAIMessages>[0]);
  return structuredClone(json) as Message[];
}

function parseToolChoice(json: unknown, tools: EvalTool[], where: string): NonNullable<EvalCase["toolChoice"]> {
  if (json === "auto" || json === "none" || json === "required") return json;
  const name = typeof json === "string" ? json : isObject(json) && json.type === "tool" ? json.name : undefined;
  if (typeof name !== "string" || !tools.some((tool) => tool.name === name)) {
    throw new TypeError(
      `${where}: toolChoice must be "auto", "none", "required" or the name of one of the case's tools (${tools.map((tool) => tool.name).join(", ") || "none given"}), got ${JSON.stringify(json)}.`,
    );
  }
  return { type: "tool", name };
}

function parseExpectation(json: unknown, where: string): EvalExpectation {
  if (!isObject(json))
    throw new TypeError(`${where}: \`expect\` must be an object ({ toolCalls?, noToolCall?, text?, object? }).`);
  const expectation: EvalExpectation = {};
  if (json.toolCalls !== undefined) {
    if (!Array.isArray(json.toolCalls))
      throw new TypeError(`${where}: expect.toolCalls must be a list of { name, args? }.`);
    expectation.toolCalls = json.toolCalls.map((call: unknown, index) => {
      if (!isObject(call) || typeof call.name !== "string") {
        throw new TypeError(`${where}: expect.toolCalls[${index}] must be { name, args? }.`);
      }
      if (call.args !== undefined && !isObject(call.args)) {
        throw new TypeError(`${where}: expect.toolCalls[${index}].args must be an object.`);
      }
      return { name: call.name, ...(call.args === undefined ? {} : { args: call.args }) };
    });
  }
  if (json.noToolCall !== undefined) {
    if (typeof json.noToolCall !== "boolean") throw new TypeError(`${where}: expect.noToolCall must be true or false.`);
    if (json.noToolCall && Array.isArray(json.toolCalls) && json.toolCalls.length > 0) {
      throw new TypeError(`${where}: expect.noToolCall is true but expect.toolCalls lists calls: keep one of them.`);
    }
    expectation.noToolCall = json.noToolCall;
  }
  if (json.text !== undefined) {
    const includes = isObject(json.text) ? json.text.includes : undefined;
    if (!Array.isArray(includes) || !includes.every((text) => typeof text === "string")) {
      throw new TypeError(`${where}: expect.text must be { includes: ["…"] }.`);
    }
    expectation.text = { includes: includes as string[] };
  }
  if (json.object !== undefined) {
    if (!isObject(json.object)) throw new TypeError(`${where}: expect.object must be an object.`);
    expectation.object = json.object;
  }
  return expectation;
}
