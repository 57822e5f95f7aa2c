import { isPlainObject } from "../schema/json-schema.js";
import type { ProviderToolCall } from "../output.js";
import { balancedEnd } from "../tool-calls/extract-json.js";
import { gemmaCallClose, gemmaCallOpen } from "./gemma-tool-calls.js";
import { mistralMarker } from "./mistral-tool-calls.js";
import { maxRepairLength, parseJSONValue } from "../tool-calls/parse-json-value.js";
import { parseGemmaCalls, parsePythonCalls } from "./python-literal.js";
import { functionTagCall, maxRecoveredCalls, withoutSpecialTokens } from "./recover-text-tool-calls.js";

/** A reply read whole as tool calls: the calls, and the leading `<think>…</think>` block (the reply's only text). */
export interface WholeTextCalls {
  calls: ProviderToolCall[];
  lead: string;
}

/** Fence languages a call is written under (```` ```json ````, Gemma's ```` ```tool_code ````, or none). */
export const callFenceLanguages: ReadonlySet<string> = new Set(["", "json", "tool_code", "tool_call", "python", "py"]);

/** Keys a call envelope may have; any other (`description`, say: a tool's definition) makes it no call. */
export const envelopeKeys: ReadonlySet<string> = new Set(["name", "arguments", "parameters", "type", "function", "id"]);

/**
 * The tool calls a reply is, when its whole text — apart from whitespace, a fence around it, Llama's
 * special tokens and a leading `<think>…</think>` block — is nothing but calls in one recognised form:
 * `<tool_call>` blocks, `<function=…>` blocks, Gemma 4's `<|tool_call>` blocks, `[TOOL_CALLS]…`, a
 * JSON envelope or a list of them (one per line too), or a Python-style call list (`[name(…)]`, or a
 * bare call in a fence or after `<|python_tag|>`). Undefined when anything else is in the text: prose
 * around a call, a tool's definition, a value that is no call. Names and arguments are not checked
 * here. With `complete` (a reply cut off at the token limit), only calls written out in full count.
 */
export function wholeTextToolCalls(
  text: string,
  wantsText: (toolName: string, parameter: string) => boolean,
  complete: boolean,
): WholeTextCalls | undefined {
  if (text.length > maxRepairLength) return undefined;
  const { lead, rest } = leadingThink(text);
  const pythonTag = /^\s*<\|python_(?:tag|start)\|>/.test(rest);
  let body = withoutSpecialTokens(rest).trim();
  const fenced = /^```([\w-]*)[ \t]*\n([\s\S]*?)\n?[ \t]*```$/.exec(body);
  if (fenced !== null) {
    if (!callFenceLanguages.has(fenced[1]!.toLowerCase()) || fenced[2]!.includes("```")) return undefined;
    body = fenced[2]!.trim();
  }
  const calls = readForm(body, { wantsText, complete, bareCalls: pythonTag || fenced !== null });
  return calls !== undefined && calls.length > 0 && calls.length <= maxRecoveredCalls ? { calls, lead } : undefined;
}

interface Reading {
  wantsText: (toolName: string, parameter: string) => boolean;
  complete: boolean;
  /** A bare Python-style call (no list brackets) counts: the text was fenced or tagged as code. */
  bareCalls: boolean;
}

/** A leading `<think>…</think>` block (closed), and the text after it. */
export function leadingThink(text: string): { lead: string; rest: string } {
  const start = text.search(/\S/);
  if (start === -1 || !text.startsWith("<think>", start)) return { lead: "", rest: text };
  const close = text.indexOf("</think>", start);
  if (close === -1) return { lead: "", rest: text };
  const end = close + "</think>".length;
  return { lead: text.slice(0, end).trim(), rest: text.slice(end) };
}

function readForm(body: string, reading: Reading): ProviderToolCall[] | undefined {
  if (body.startsWith(gemmaCallOpen)) {
    return every(blocks(body, gemmaCallOpen, gemmaCallClose, reading.complete), (inner) => parseGemmaCalls(inner));
  }
  if (body.startsWith("<tool_call>")) {
    return every(blocks(body, "<tool_call>", "</tool_call>", reading.complete), (inner) => {
      const trimmed = withoutSpecialTokens(inner).trim();
      return trimmed.startsWith("<function=") ? functionTags(trimmed, reading) : jsonCalls(trimmed, reading);
    });
  }
  if (body.startsWith("<function=")) return functionTags(body, reading);
  if (body.startsWith(mistralMarker)) return mistralCalls(body, reading);
  if (body.startsWith("[")) return pythonCalls(body) ?? jsonCalls(body, reading);
  if (body.startsWith("{")) return jsonCalls(body, reading);
  return reading.bareCalls ? pythonCalls(body) : undefined;
}

/** `f` over every item, its calls joined; undefined when any item has none (or there are no items). */
function every(items: string[] | undefined, f: (item: string) => ProviderToolCall[] | undefined) {
  if (items === undefined) return undefined;
  const calls: ProviderToolCall[] = [];
  for (const item of items) {
    const some = f(item);
    if (some === undefined || some.length === 0) return undefined;
    calls.push(...some);
  }
  return calls;
}

/**
 * The bodies of `open…close` blocks that make up the whole text (whitespace between them), or
 * undefined when anything else is there. The last block may be left open unless `complete`.
 */
function blocks(text: string, open: string, close: string, complete: boolean): string[] | undefined {
  const bodies: string[] = [];
  for (let at = skipSpace(text, 0); at < text.length; at = skipSpace(text, at)) {
    if (!text.startsWith(open, at) || bodies.length === maxRecoveredCalls) return undefined;
    const closeAt = text.indexOf(close, at + open.length);
    if (closeAt === -1) {
      if (complete) return undefined;
      bodies.push(text.slice(at + open.length));
      break;
    }
    bodies.push(text.slice(at + open.length, closeAt));
    at = closeAt + close.length;
  }
  return bodies;
}

/** `<function=name>…</function>` blocks, the whole text. */
function functionTags(text: string, reading: Reading): ProviderToolCall[] | undefined {
  return every(blocks(text, "<function=", "</function>", reading.complete), (inner) => {
    const nameEnd = inner.indexOf(">");
    const name = nameEnd === -1 ? "" : inner.slice(0, nameEnd).trim();
    if (name === "") return undefined;
    const call = functionTagCall(name, inner.slice(nameEnd + 1), reading.wantsText, reading.complete);
    return call && [call];
  });
}

/** `[TOOL_CALLS]name[ARGS]{…}` once per call, or `[TOOL_CALLS]` before a JSON list of envelopes. */
function mistralCalls(text: string, reading: Reading): ProviderToolCall[] | undefined {
  const segments = text.split(mistralMarker).slice(1);
  if (!text.includes("[ARGS]")) return segments.length === 1 ? jsonCalls(segments[0]!.trim(), reading) : undefined;
  return every(segments, (segment) => {
    const argsAt = segment.indexOf("[ARGS]");
    if (argsAt === -1) return undefined;
    const head = segment.slice(0, argsAt);
    const name = head.split("[CALL_ID]", 1)[0]!.trim();
    const args = segment.slice(argsAt + "[ARGS]".length).trim();
    return name !== "" && wholeJSON(args, reading) !== undefined ? [{ name, args }] : undefined;
  });
}

function pythonCalls(text: string): ProviderToolCall[] | undefined {
  return parsePythonCalls(text)?.map(({ name, args }) => ({
    name: name.endsWith(".call") ? name.slice(0, -".call".length) : name,
    args,
  }));
}

/** JSON values that make up the whole text (whitespace between them), each an envelope or a list of envelopes. */
function jsonCalls(text: string, reading: Reading): ProviderToolCall[] | undefined {
  const calls: ProviderToolCall[] = [];
  for (let at = skipSpace(text, 0); at < text.length; at = skipSpace(text, at)) {
    if ((text[at] !== "{" && text[at] !== "[") || calls.length >= maxRecoveredCalls) return undefined;
    const end = balancedEnd(text, at);
    const value = wholeJSON(text.slice(at, end === -1 ? text.length : end), reading);
    if (value === undefined) return undefined;
    for (const item of Array.isArray(value) ? value : [value]) {
      const call = envelope(item);
      if (call === undefined) return undefined;
      calls.push(call);
    }
    if (end === -1) break;
    at = end;
  }
  return calls;
}

/** One JSON value written whole (repaired where broken, unless only complete calls count), else undefined. */
function wholeJSON(text: string, reading: Reading): unknown {
  const parsed = parseJSONValue(text);
  if (parsed === undefined || parsed.repairs.includes("stripped-wrapper")) return undefined;
  if (reading.complete && parsed.repairs.includes("json-repaired")) return undefined;
  return parsed.value;
}

/**
 * `{"name", "arguments" | "parameters"}` (Llama's `type: "function"` beside them allowed), or OpenAI's
 * `{"type": "function", "function": {"name", "arguments"}}`; nothing but those keys (and an `id`).
 */
function envelope(value: unknown): ProviderToolCall | undefined {
  if (!isPlainObject(value) || !Object.keys(value).every((key) => envelopeKeys.has(key))) return undefined;
  if (value.type !== undefined && value.type !== "function") return undefined;
  if (value.function !== undefined) {
    const inner = value.function;
    if (!isPlainObject(inner) || value.name !== undefined || value.arguments !== undefined) return undefined;
    if (!Object.keys(inner).every((key) => key === "name" || key === "arguments" || key === "id")) return undefined;
    return typeof inner.name === "string" && inner.arguments !== undefined
      ? { name: inner.name, args: inner.arguments }
      : undefined;
  }
  if (typeof value.name !== "string") return undefined;
  const hasArguments = value.arguments !== undefined;
  if (hasArguments === (value.parameters !== undefined)) return undefined;
  return { name: value.name, args: hasArguments ? value.arguments : value.parameters };
}

function skipSpace(text: string, from: number): number {
  let at = from;
  while (at < text.length && /\s/.test(text[at]!)) at++;
  return at;
}
