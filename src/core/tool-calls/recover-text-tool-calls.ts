import { isPlainObject } from "../schema/json-schema.js";
import type { ProviderToolCall } from "../output.js";
import { maxRepairLength, parseJSONValue } from "./parse-json-value.js";
import { taggedBlocks } from "./tagged-blocks.js";

/** At most this many calls are read from one reply (a reply with more is not a sane tool call). */
const maxRecoveredCalls = 16;

/**
 * Finds tool calls that a model wrote as text instead of calling the tool, in the forms weak and
 * local models really produce: `<tool_call>{json}</tool_call>`, Qwen's
 * `<function=name><parameter=key>value</parameter></function>`, a ```json fence, or a bare
 * `{"name": …, "arguments" | "parameters": …}` envelope (also OpenAI's `{type, function}` shape).
 * Only names that `isKnownTool` accepts are returned; arguments are left raw for the caller to parse.
 * A `<parameter=…>` value is text; `wantsText(tool, parameter)` says where the tool's schema takes
 * text, so that `27422` stays the string an order id is rather than becoming a number.
 */
export function recoverTextToolCalls(
  text: string,
  isKnownTool: (name: string) => boolean,
  wantsText: (toolName: string, parameter: string) => boolean = () => false,
): ProviderToolCall[] {
  if (text.length > maxRepairLength) return [];
  const tagged = taggedBlocks(text, "<tool_call>", "</tool_call>", maxRecoveredCalls).map((block) => block.body);
  const candidates = tagged.length > 0 ? tagged : [text];
  const calls: ProviderToolCall[] = [];
  for (const candidate of candidates) {
    calls.push(...(candidate.includes("<function=") ? fromFunctionTags(candidate, wantsText) : fromJSON(candidate)));
  }
  return calls.filter((call) => isKnownTool(call.name)).slice(0, maxRecoveredCalls);
}

function fromFunctionTags(text: string, wantsText: (toolName: string, parameter: string) => boolean): ProviderToolCall[] {
  return taggedBlocks(text, "<function=", "</function>", maxRecoveredCalls).map(({ attribute, body }) => {
    const args: Record<string, unknown> = {};
    for (const parameter of taggedBlocks(body, "<parameter=", "</parameter>", 256)) {
      if (parameter.attribute === "__proto__" || parameter.attribute === "") continue;
      const value = parameter.body.replace(/^\n/, "").replace(/\n$/, "");
      args[parameter.attribute] = wantsText(attribute, parameter.attribute) ? value : parameterValue(value);
    }
    return { name: attribute, args };
  });
}

/** Parameter values are text; numbers, booleans and JSON objects written inside are read as such. */
function parameterValue(text: string): unknown {
  const trimmed = text.trim();
  if (/^(-?\d+(\.\d+)?|true|false|null)$/.test(trimmed) || /^[[{]/.test(trimmed)) {
    try {
      return JSON.parse(trimmed);
    } catch {
      return text;
    }
  }
  return text;
}

function fromJSON(text: string): ProviderToolCall[] {
  const parsed = parseJSONValue(text);
  if (!parsed) return [];
  const items = Array.isArray(parsed.value) ? parsed.value.slice(0, maxRecoveredCalls) : [parsed.value];
  return items.flatMap((item) => {
    const call = envelope(item);
    return call ? [call] : [];
  });
}

function envelope(value: unknown): ProviderToolCall | undefined {
  if (!isPlainObject(value)) return undefined;
  const inner = isPlainObject(value.function) ? value.function : value;
  if (typeof inner.name !== "string") return undefined;
  const args = "arguments" in inner ? inner.arguments : "parameters" in inner ? inner.parameters : undefined;
  if (args === undefined) return undefined;
  return { name: inner.name, args };
}
