import { isPlainObject } from "../schema/json-schema.js";
import type { ProviderToolCall, RepairKind } from "../output.js";
import { parseJSONValue } from "../tool-calls/parse-json-value.js";
import { preview } from "../tool-calls/parse-tool-arguments.js";
import { unwrapItem } from "./tool-union-schema.js";

export type ToolUnionReading =
  { ok: true; calls: ProviderToolCall[]; repairs: RepairKind[] } | { ok: false; problem: string };

/**
 * Reads a reply to the tool-union schema back into tool calls. Accepts the wrapped `{ item }` and
 * the bare form, one call or an array, and — when a fallback tool is given — bare parameters as a
 * call to it.
 */
export function readToolUnion(text: string, fallbackTool: string | undefined): ToolUnionReading {
  const parsed = parseJSONValue(text);
  if (!parsed)
    return { ok: false, problem: `the reply is not the JSON tool call that was asked for: ${preview(text)}` };
  const value = unwrapItem(parsed.value);
  const items = Array.isArray(value) ? value : [value];
  if (items.length === 0) return { ok: false, problem: "the reply is an empty list of tool calls" };
  const calls: ProviderToolCall[] = [];
  for (const item of items) {
    const call = readCall(item, fallbackTool);
    if (!call) {
      return {
        ok: false,
        problem: `each tool call must be {"name": <tool name>, "parameters": {…}}, got ${preview(JSON.stringify(item))}`,
      };
    }
    calls.push(call);
  }
  return { ok: true, calls, repairs: parsed.repairs };
}

function readCall(item: unknown, fallbackTool: string | undefined): ProviderToolCall | undefined {
  if (!isPlainObject(item)) return undefined;
  if (typeof item.name === "string") {
    const args = "parameters" in item ? item.parameters : "arguments" in item ? item.arguments : undefined;
    if (args !== undefined) return { name: item.name, args };
    if (fallbackTool === undefined) return undefined;
    if (item.name === fallbackTool && Object.keys(item).length === 1) return { name: item.name, args: {} };
  }
  if (fallbackTool === undefined) return undefined;
  return { name: fallbackTool, args: item };
}
