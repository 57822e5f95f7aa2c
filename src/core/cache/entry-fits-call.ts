import type { ChatModelChunk } from "../stream/chat-model-chunk.js";
import type { ToolCall } from "../messages.js";
import type { PreparedCall } from "../call/index.js";
import type { CacheEntry } from "./cache-entry.js";

/**
 * A stored answer as this call gets it, or undefined when it does not satisfy the call: every tool
 * call is to a tool the call allows, with arguments its schema accepts, and a structured answer is
 * there when one is asked for and accepted by this call's schema. Arguments and object are served
 * as this call's schemas make them (two schemas with one JSON Schema, and so one cache key, may
 * refine or transform differently; a JSON store keeps no Date). A shared store can hold entries
 * written by other versions or processes; one that does not fit is dropped rather than served.
 */
export function entryFitsCall(entry: CacheEntry, call: PreparedCall): CacheEntry | undefined {
  const { output } = entry;
  if (!Array.isArray(output.toolCalls)) return undefined;
  // As fresh output is checked against the tool choice: no call under "none", one unless parallel calls are allowed.
  const count = output.toolCalls.length;
  if ((call.rules.choice.mode === "none" && count > 0) || (count > 1 && !call.rules.allowParallel)) return undefined;
  const inputs = Array.isArray(entry.toolCallInputs) ? entry.toolCallInputs : undefined;
  const toolCalls: ToolCall[] = [];
  for (const [index, toolCall] of output.toolCalls.entries()) {
    // The schema takes what it was given: a tool whose schema transforms its input is checked on that input.
    const args = inputs && index in inputs ? inputs[index] : toolCall.args;
    const result = call.rules.validators.get(toolCall.name)?.validate(args);
    if (!result?.success) return undefined;
    // Served as this call's schema makes them: another schema (or a JSON store) made what is stored.
    toolCalls.push({ ...toolCall, args: result.value as Record<string, unknown> });
  }
  // The message and the replayed chunks hand out the calls just checked, never copies of their own.
  const fitting = toolCalls.length > 0 ? entryWithToolCalls(entry, toolCalls) : entry;
  const { structure, structureTool } = call.rules;
  if (!structure && structureTool === undefined) return fitting;
  // With tools under "auto" the reply is tool calls or the object (API.md, "Tools and a final answer").
  if (output.object === undefined)
    return toolCalls.length > 0 && call.rules.choice.mode === "auto" ? fitting : undefined;
  const validate =
    structureTool === undefined ? structure?.validate : call.rules.validators.get(structureTool)?.validate;
  if (!validate) return fitting;
  const result = validate("structureInput" in entry ? entry.structureInput : output.object);
  return result.success ? { ...fitting, output: { ...fitting.output, object: result.value } } : undefined;
}

/**
 * The entry with its tool calls replaced wherever it hands them out: the output's list, its message
 * and the `tool-call` chunks a stream replays. A call is found by its id and, as a provider may give
 * two calls one id, by its place among the calls with that id.
 */
function entryWithToolCalls(entry: CacheEntry, toolCalls: ToolCall[]): CacheEntry {
  const { output, chunks } = entry;
  const { message } = output;
  const inMessage = replacer(toolCalls);
  const content =
    typeof message.content === "string"
      ? message.content
      : message.content.map((part) => (part.type === "tool-call" ? inMessage(part) : part));
  const replaced: CacheEntry = { ...entry, output: { ...output, toolCalls, message: { ...message, content } } };
  if (chunks) {
    const inChunks = replacer(toolCalls);
    replaced.chunks = chunks.map((chunk) =>
      chunk.type === "tool-call" ? withToolCall(chunk, inChunks(chunk.toolCall)) : chunk,
    );
  }
  return replaced;
}

/** Hands out, for each stored call met in order, the replacement with its id and place among that id's calls. */
function replacer(toolCalls: readonly ToolCall[]): (stored: ToolCall) => ToolCall {
  const byId = new Map<string, ToolCall[]>();
  for (const toolCall of toolCalls) {
    const same = byId.get(toolCall.id);
    if (same) same.push(toolCall);
    else byId.set(toolCall.id, [toolCall]);
  }
  const seen = new Map<string, number>();
  return (stored) => {
    const same = byId.get(stored.id);
    if (!same) return stored;
    const place = seen.get(stored.id) ?? 0;
    seen.set(stored.id, place + 1);
    return same[Math.min(place, same.length - 1)]!;
  };
}

function withToolCall(chunk: ChatModelChunk & { type: "tool-call" }, toolCall: ToolCall): ChatModelChunk {
  return { type: "tool-call", toolCall };
}
