import { isPlainObject } from "../schema/json-schema.js";
import type { ProviderToolCall } from "../output.js";
import { maxRepairLength, parseJSONValue, parseJSONValues, type ParsedJSON } from "../tool-calls/parse-json-value.js";
import { gemmaCallOpen, gemmaToolCalls } from "./gemma-tool-calls.js";
import { mistralMarker, mistralToolCalls } from "./mistral-tool-calls.js";
import { pythonicToolCalls } from "./pythonic-tool-calls.js";
import { taggedBlocks } from "./tagged-blocks.js";

/** At most this many calls are read from one reply (a reply with more is not a sane tool call). */
export const maxRecoveredCalls = 16;

/**
 * Finds tool calls that a model wrote as text instead of calling the tool, in the forms weak and
 * local models really produce: `<tool_call>{json}</tool_call>` (Hermes, Qwen 2.5 / 3), Qwen3-Coder's
 * `<function=name><parameter=key>value</parameter></function>`, Llama 3.1's
 * `<function=name>{json}</function>`, Mistral's `[TOOL_CALLS]` (a JSON list, or `name[ARGS]{json}`),
 * Python-style calls (Llama 3.2 / 4's `[get_weather(city="Paris")]`, Gemma's ```` ```tool_code ````),
 * Gemma 4's `<|tool_call>call:name{key:<|"|>value<|"|>}<tool_call|>`, a ```json fence, or a bare
 * `{"name": …, "arguments" | "parameters": …}` envelope (also OpenAI's `{type, function}` shape); Llama's `<|python_tag|>` and end-of-turn tokens around them are ignored.
 * Only names that `isKnownTool` accepts are returned; arguments are left raw for the caller to parse.
 * A `<parameter=…>` value is text; `wantsText(tool, parameter)` says where the tool's schema takes
 * text, so that `27422` stays the string an order id is rather than becoming a number.
 * With `complete` (a reply cut off at the token limit), only calls written out in full are read:
 * none from a tag left open or from JSON that jsonrepair had to close — completing those would be a guess.
 */
export function recoverTextToolCalls(
  text: string,
  isKnownTool: (name: string) => boolean,
  wantsText: (toolName: string, parameter: string) => boolean = () => false,
  complete = false,
): ProviderToolCall[] {
  if (text.length > maxRepairLength) return [];
  if (text.includes(gemmaCallOpen)) {
    return gemmaToolCalls(text, maxRecoveredCalls, complete).filter((call) => isKnownTool(call.name));
  }
  const blocks = taggedBlocks(text, "<tool_call>", "</tool_call>", maxRecoveredCalls);
  const tagged = blocks.filter((block) => block.closed || !complete).map((block) => block.body);
  const candidates = blocks.length > 0 ? tagged : [text];
  const calls: ProviderToolCall[] = [];
  for (const candidate of candidates)
    calls.push(...fromCandidate(withoutSpecialTokens(candidate), wantsText, complete));
  return calls.filter((call) => isKnownTool(call.name)).slice(0, maxRecoveredCalls);
}

function fromCandidate(
  text: string,
  wantsText: (toolName: string, parameter: string) => boolean,
  complete: boolean,
): ProviderToolCall[] {
  if (text.includes("<function=")) return fromFunctionTags(text, wantsText, complete);
  if (text.includes(mistralMarker)) {
    return mistralToolCalls(text, maxRecoveredCalls) ?? fromJSON(text.split(mistralMarker).join(" "), complete);
  }
  return pythonicToolCalls(text) ?? fromJSON(text, complete);
}

/** Llama's tool and end-of-turn tokens, which a server that does not parse the call leaves in the text. */
export function withoutSpecialTokens(text: string): string {
  return text.includes("<|")
    ? text.replace(/<\|(?:python_tag|python_start|python_end|eom_id|eot_id|eom|eot)\|>/g, "\n")
    : text;
}

function fromFunctionTags(
  text: string,
  wantsText: (toolName: string, parameter: string) => boolean,
  complete: boolean,
): ProviderToolCall[] {
  const functions = taggedBlocks(text, "<function=", "</function>", maxRecoveredCalls).filter(
    (block) => block.closed || !complete,
  );
  return functions.flatMap((block) => functionTagCall(block.attribute, block.body, wantsText, complete) ?? []);
}

/**
 * The call of one `<function=name>…</function>` block: `<parameter=key>value</parameter>` blocks, or
 * (Llama 3.1) one JSON object. Undefined for a parameter left open when only complete calls are read.
 */
export function functionTagCall(
  name: string,
  body: string,
  wantsText: (toolName: string, parameter: string) => boolean,
  complete: boolean,
): ProviderToolCall | undefined {
  const args: Record<string, unknown> = {};
  const parameters = taggedBlocks(body, "<parameter=", "</parameter>", 256);
  // Llama 3.1's form: the arguments are one JSON object, `<function=search>{"query": "keelson"}</function>`.
  if (parameters.length === 0) return { name, args: body.trim() || {} };
  if (complete && parameters.some((parameter) => !parameter.closed)) return undefined;
  for (const parameter of parameters) {
    if (parameter.attribute === "__proto__" || parameter.attribute === "") continue;
    const value = parameter.body.replace(/^\n/, "").replace(/\n$/, "");
    args[parameter.attribute] = wantsText(name, parameter.attribute) ? value : parameterValue(value);
  }
  return { name, args };
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

function fromJSON(text: string, complete: boolean): ProviderToolCall[] {
  const parsed = parseJSONValue(text);
  if (parsed) return fromParsed(parsed, complete);
  // One call per line (`{…}\n{…}`): every call of it.
  return (parseJSONValues(text) ?? []).flatMap((value) => fromParsed(value, complete));
}

function fromParsed(parsed: ParsedJSON, complete: boolean): ProviderToolCall[] {
  if (complete && parsed.repairs.includes("json-repaired")) return [];
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
