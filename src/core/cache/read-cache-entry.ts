import { isPlainObject } from "../schema/json-schema.js";
import type { CacheEntry } from "./cache-entry.js";

/** Deeper than any answer keelson stores (tool arguments stop at 64 levels): past it, an entry is refused. */
const maxEntryDepth = 256;

const usageFields = [
  "inputTokens",
  "outputTokens",
  "totalTokens",
  "reasoningTokens",
  "cachedInputTokens",
  "cacheWriteInputTokens",
] as const;

const finishReasons = new Set(["stop", "length", "tool-calls", "content-filter", "error", "other"]);

/** A stored value as an entry to serve, or what is wrong with it. */
export type ReadEntry = { entry: CacheEntry; problem?: undefined } | { entry?: undefined; problem: string };

/**
 * A value a store gave back, checked and cleaned as fresh provider output is: a store shared with
 * other code, corrupted, or written by another version can return anything. It is copied first (a
 * getter, a Proxy or a function in it refuses the copy, not the call), `__proto__` and
 * `constructor.prototype` members are dropped at every level as fresh tool arguments drop them (a
 * JSON store gives back an own `__proto__` key that a fresh call would have stripped), and then
 * every field serving it reads is checked: the shapes of the output, its message and tool calls,
 * its usage and the chunks a stream replays.
 */
export function readCacheEntry(stored: unknown): ReadEntry {
  let copy: unknown;
  try {
    copy = structuredClone(stored);
  } catch (error) {
    // Named, not quoted: a DataCloneError's message quotes the value (a function's source).
    return { problem: `it cannot be copied as data (${errorName(error)})` };
  }
  if (!dropPrototypeKeys(copy)) return { problem: `it nests deeper than ${maxEntryDepth} levels` };
  const problem = entryProblem(copy);
  return problem === undefined ? { entry: copy as CacheEntry } : { problem };
}

/** Drops prototype keys from plain objects at every level, in place; false past the depth limit. */
function dropPrototypeKeys(root: unknown): boolean {
  const pending: [unknown, number][] = [[root, 0]];
  for (let next = pending.pop(); next; next = pending.pop()) {
    const [value, depth] = next;
    if (value === null || typeof value !== "object") continue;
    if (depth > maxEntryDepth) return false;
    if (Array.isArray(value)) {
      for (const item of value) pending.push([item, depth + 1]);
      continue;
    }
    const prototype: unknown = Object.getPrototypeOf(value);
    if (prototype !== Object.prototype && prototype !== null) continue; // a Date, a Map: no members to poison
    const record = value as Record<string, unknown>;
    if (Object.hasOwn(record, "__proto__")) delete record["__proto__"];
    const maker = Object.hasOwn(record, "constructor") ? record.constructor : undefined;
    if (maker !== null && typeof maker === "object" && "prototype" in maker) delete record["constructor"];
    for (const key of Object.keys(record)) pending.push([record[key], depth + 1]);
  }
  return true;
}

/** The first thing serving the entry would trip on, or undefined when it has an answer's shape. */
function entryProblem(value: unknown): string | undefined {
  if (!isRecord(value)) return `it is ${kind(value)}, not an entry`;
  const { output, chunks, toolCallInputs } = value;
  if (!isRecord(output)) return `its output is ${kind(output)}`;
  const { message, toolCalls, usage, meta } = output;
  if (!isRecord(message) || message.role !== "assistant") return "its output.message is not an assistant message";
  for (const field of ["text", "reasoning"] as const)
    if (typeof output[field] !== "string") return `its output.${field} is ${kind(output[field])}, not a string`;
  if (!finishReasons.has(output.finishReason as string)) return "its output.finishReason is not a finish reason";
  if (!Array.isArray(toolCalls)) return `its output.toolCalls is ${kind(toolCalls)}, not a list`;
  for (const [index, toolCall] of toolCalls.entries()) {
    const problem = toolCallProblem(toolCall);
    if (problem) return `its output.toolCalls[${index}] ${problem}`;
  }
  const contentProblem = messageProblem(message.content, toolCalls as { id: string; name: string }[]);
  if (contentProblem) return `its output.message ${contentProblem}`;
  const usageProblem = usageOf(usage, true);
  if (usageProblem) return `its output.usage ${usageProblem}`;
  if (!isRecord(meta) || !Array.isArray(meta.repairs) || !Array.isArray(meta.attempts))
    return "its output.meta has no repairs and attempts lists";
  if (toolCallInputs !== undefined && !Array.isArray(toolCallInputs)) return "its toolCallInputs is not a list";
  if (chunks === undefined) return undefined;
  if (!Array.isArray(chunks)) return `its chunks are ${kind(chunks)}, not a list`;
  let calls = 0;
  for (const [index, chunk] of chunks.entries()) {
    const problem = chunkProblem(chunk);
    if (problem) return `its chunks[${index}] ${problem}`;
    if (chunk.type !== "tool-call") continue;
    // A stream hands out the validated calls at its end: the output's own, in order.
    const { id, name } = chunk.toolCall as { id: string; name: string };
    const listed = (toolCalls as { id: string; name: string }[])[calls++];
    if (listed?.id !== id || listed.name !== name)
      return `its chunks[${index}] is a tool call the output does not list`;
  }
  return calls === toolCalls.length ? undefined : "its chunks hand out fewer tool calls than the output lists";
}

/** The message's content parts, each readable, its tool calls the output's own (the same ids and names, in order). */
function messageProblem(content: unknown, toolCalls: readonly { id: string; name: string }[]): string | undefined {
  if (typeof content === "string") return toolCalls.length === 0 ? undefined : "holds none of the output's tool calls";
  if (!Array.isArray(content)) return `content is ${kind(content)}`;
  let calls = 0;
  for (const [index, part] of content.entries()) {
    const problem = partProblem(part);
    if (problem) return `content[${index}] ${problem}`;
    if ((part as { type: string }).type !== "tool-call") continue;
    const { id, name } = part as { id: string; name: string };
    const listed = toolCalls[calls++];
    if (listed?.id !== id || listed.name !== name) return `content[${index}] is a tool call the output does not list`;
  }
  return calls === toolCalls.length ? undefined : "lists fewer tool calls than the output";
}

function partProblem(part: unknown): string | undefined {
  if (!isRecord(part)) return `is ${kind(part)}, not a part`;
  switch (part.type) {
    case "text":
      return typeof part.text === "string" ? undefined : "is a text part without text";
    case "reasoning":
      return reasoningProblem(part);
    case "tool-call":
      return toolCallProblem(part);
    default:
      return "is not a text, reasoning or tool-call part";
  }
}

function reasoningProblem(part: Record<string, unknown>): string | undefined {
  if (typeof part.text !== "string") return "is reasoning without text";
  for (const field of ["signature", "redactedData", "id"] as const)
    if (part[field] !== undefined && typeof part[field] !== "string") return `has a ${field} that is no string`;
  return undefined;
}

function toolCallProblem(toolCall: unknown): string | undefined {
  if (!isRecord(toolCall) || toolCall.type !== "tool-call") return "is not a tool call";
  if (typeof toolCall.id !== "string" || typeof toolCall.name !== "string") return "has no id and name (strings)";
  const { args } = toolCall;
  if (!isPlainObject(args)) return `has arguments that are ${kind(args)}, not a plain object`;
  return undefined;
}

function chunkProblem(chunk: unknown): string | undefined {
  if (!isRecord(chunk)) return `is ${kind(chunk)}, not a chunk`;
  switch (chunk.type) {
    case "text-delta":
      return typeof chunk.text === "string" ? undefined : "is a text delta without text";
    case "reasoning-delta":
      return reasoningProblem(chunk);
    case "tool-call-delta":
      if (!Number.isInteger(chunk.index) || (chunk.index as number) < 0) return "is a tool call delta without index";
      for (const field of ["id", "name", "argsDelta"] as const)
        if (chunk[field] !== undefined && typeof chunk[field] !== "string") return `has a ${field} that is no string`;
      return undefined;
    case "tool-call":
      return toolCallProblem(chunk.toolCall);
    case "usage":
      return usageOf(chunk.usage, false);
    case "finish":
      if (!finishReasons.has(chunk.finishReason as string)) return "is a finish without a finish reason";
      return chunk.usage === undefined ? undefined : usageOf(chunk.usage, false);
    default:
      return "is not a chunk keelson stores";
  }
}

/** Token counts: non-negative finite numbers; the three totals required in an output's usage. */
function usageOf(usage: unknown, whole: boolean): string | undefined {
  if (!isRecord(usage)) return `is ${kind(usage)}, not token counts`;
  for (const field of usageFields.slice(0, 3)) if (whole && usage[field] === undefined) return `has no ${field}`;
  for (const field of usageFields) {
    const count = usage[field];
    if (count !== undefined && !(typeof count === "number" && Number.isFinite(count) && count >= 0))
      return `has a ${field} that is no count of tokens`;
  }
  return undefined;
}

/** What kind of error was thrown, whatever it was (a getter that throws included). */
function errorName(error: unknown): string {
  try {
    if (error instanceof Error && typeof error.name === "string") return error.name.slice(0, 60);
  } catch {
    // An unreadable name: say no more.
  }
  return "a throw";
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return value !== null && typeof value === "object";
}

function kind(value: unknown): string {
  if (value === null || value === undefined) return String(value);
  if (Array.isArray(value)) return "a list";
  const type = typeof value;
  return type === "object" ? "an object" : `a ${type}`;
}
