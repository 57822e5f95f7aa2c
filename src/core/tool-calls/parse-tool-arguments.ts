import { isPlainObject } from "../schema/json-schema.js";
import type { RepairKind } from "../output.js";
import { maxRepairLength, parseJSONValue } from "./parse-json-value.js";
import { safeJSONParse } from "../../internal/safe-json.js";

export type ParsedArguments =
  | { ok: true; args: Record<string, unknown>; repairs: RepairKind[] }
  | { ok: false; problem: string };

/**
 * Turns whatever a provider sent as tool arguments into an object: an object as is (copied without
 * prototype keys), a JSON string (repaired if need be), a doubly encoded string, or an empty value
 * for a tool that takes nothing.
 */
export function parseToolArguments(raw: unknown, repair = true): ParsedArguments {
  if (raw === undefined || raw === null) return { ok: true, args: {}, repairs: ["empty-args"] };
  if (typeof raw === "string") return repair ? parseArgumentString(raw) : parseStrictly(raw);
  if (isPlainObject(raw)) {
    if (nestingDepth(raw) > maxNestingDepth) return { ok: false, problem: `the arguments are nested deeper than ${maxNestingDepth} levels` };
    return { ok: true, args: withoutPrototypeKeys(raw), repairs: [] };
  }
  return { ok: false, problem: `the arguments must be a JSON object, got ${describe(raw)}` };
}

function parseArgumentString(text: string): ParsedArguments {
  if (text.trim() === "") return { ok: true, args: {}, repairs: ["empty-args"] };
  if (textNestingDepth(text) > maxNestingDepth) {
    return { ok: false, problem: `the arguments are nested deeper than ${maxNestingDepth} levels` };
  }
  const parsed = parseJSONValue(text);
  if (!parsed) {
    const tooLong = text.length > maxRepairLength ? ` (${text.length} characters, past the ${maxRepairLength} keelson attempts to repair)` : "";
    return { ok: false, problem: `the arguments are not valid JSON${tooLong}: ${preview(text)}` };
  }
  if (!isPlainObject(parsed.value)) {
    return { ok: false, problem: `the arguments must be a JSON object, got ${describe(parsed.value)}` };
  }
  if (nestingDepth(parsed.value) > maxNestingDepth) {
    return { ok: false, problem: `the arguments are nested deeper than ${maxNestingDepth} levels` };
  }
  return { ok: true, args: parsed.value, repairs: parsed.repairs };
}

/** Deeper arguments are refused: validators and providers recurse, and no real tool needs them. */
export const maxNestingDepth = 64;

/** How deep JSON text nests, from its brackets (strings skipped), in one pass before any parsing. */
function textNestingDepth(text: string): number {
  let depth = 0;
  let deepest = 0;
  let inString = false;
  for (let i = 0; i < text.length; i++) {
    const char = text[i];
    if (inString) {
      if (char === "\\") i++;
      else if (char === '"') inString = false;
    } else if (char === '"') inString = true;
    else if (char === "{" || char === "[") deepest = Math.max(deepest, ++depth);
    else if (char === "}" || char === "]") depth--;
  }
  return deepest;
}

/** How deep a parsed value nests, counted without recursion (so a hostile value cannot overflow the stack). */
function nestingDepth(value: unknown): number {
  let deepest = 0;
  const stack: [unknown, number][] = [[value, 1]];
  while (stack.length > 0) {
    const [node, depth] = stack.pop()!;
    if (node === null || typeof node !== "object") continue;
    if (depth > deepest) deepest = depth;
    if (deepest > maxNestingDepth) return deepest;
    for (const child of Object.values(node)) stack.push([child, depth + 1]);
  }
  return deepest;
}

/** Strict JSON only (fixInvalidToolCalls: false): a broken argument string is re-asked, not repaired. */
function parseStrictly(text: string): ParsedArguments {
  if (text.trim() === "") return { ok: true, args: {}, repairs: ["empty-args"] };
  if (textNestingDepth(text) > maxNestingDepth) {
    return { ok: false, problem: `the arguments are nested deeper than ${maxNestingDepth} levels` };
  }
  let value: unknown;
  try {
    value = safeJSONParse(text);
  } catch {
    return { ok: false, problem: `the arguments are not valid JSON: ${preview(text)}` };
  }
  if (!isPlainObject(value)) return { ok: false, problem: `the arguments must be a JSON object, got ${describe(value)}` };
  return { ok: true, args: value, repairs: [] };
}

function withoutPrototypeKeys(value: Record<string, unknown>): Record<string, unknown> {
  // A round trip through the safe parser drops __proto__ / constructor.prototype at every level.
  return safeJSONParse(JSON.stringify(value)) as Record<string, unknown>;
}

function describe(value: unknown): string {
  if (Array.isArray(value)) return "an array";
  if (value === null) return "null";
  return typeof value;
}

export function preview(text: string, length = 200): string {
  return text.length > length ? `${JSON.stringify(text.slice(0, length))}…` : JSON.stringify(text);
}
