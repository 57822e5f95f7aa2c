import { isPlainObject } from "../schema/json-schema.js";
import type { RepairKind } from "../output.js";
import { maxRepairLength, parseJSONValue } from "./parse-json-value.js";
import { safeJSONParse } from "../../internal/safe-json.js";

export type ParsedArguments =
  { ok: true; args: Record<string, unknown>; repairs: readonly RepairKind[] } | { ok: false; problem: string };

/**
 * Turns whatever a provider sent as tool arguments into an object: an object as is (copied without
 * prototype keys), a JSON string (repaired if need be), a doubly encoded string, or an empty value
 * for a tool that takes nothing.
 */
export function parseToolArguments(raw: unknown, repair = true): ParsedArguments {
  if (raw === undefined || raw === null) return { ok: true, args: {}, repairs: ["empty-args"] };
  if (typeof raw === "string") return parseArgumentText(raw, repair);
  if (isPlainObject(raw)) {
    const args = copyArguments(raw, 1);
    if (args === tooDeep) return nestedTooDeep();
    return { ok: true, args: args as Record<string, unknown>, repairs: [] };
  }
  return { ok: false, problem: `the arguments must be a JSON object, got ${describe(raw)}` };
}

/** The usual case's repairs: none, one shared list (nothing adds to a parse's repairs). */
const noRepairs: readonly RepairKind[] = Object.freeze([]);

/**
 * Argument text: a strict JSON object at once (the usual case); else empty text as no arguments,
 * text nested past the limit refused before any parsing, and the rest repaired or, without repair,
 * refused with what is wrong.
 */
function parseArgumentText(text: string, repair: boolean): ParsedArguments {
  const object = strictObject(text);
  if (object !== undefined) return { ok: true, args: object, repairs: noRepairs };
  if (text.trim() === "") return { ok: true, args: {}, repairs: ["empty-args"] };
  if (textNestingDepth(text) > maxNestingDepth) return nestedTooDeep();
  return repair ? repairArguments(text) : parseStrictly(text);
}

function repairArguments(text: string): ParsedArguments {
  const parsed = parseJSONValue(text);
  if (!parsed) {
    const tooLong =
      text.length > maxRepairLength
        ? ` (${text.length} characters, past the ${maxRepairLength} keelson attempts to repair)`
        : "";
    return { ok: false, problem: `the arguments are not valid JSON${tooLong}: ${preview(text)}` };
  }
  if (!isPlainObject(parsed.value)) {
    return { ok: false, problem: `the arguments must be a JSON object, got ${describe(parsed.value)}` };
  }
  // The text's depth was checked before parsing; a doubly encoded value hid its depth in a string.
  if (parsed.repairs.includes("double-encoded") && nestsDeeperThan(parsed.value, maxNestingDepth))
    return nestedTooDeep();
  return { ok: true, args: parsed.value, repairs: parsed.repairs };
}

/**
 * The usual case, cheaply: the text is a JSON object within the nesting limit. JSON.parse does not
 * recurse, so the depth is read from the parsed value (per member) rather than from the text (per
 * character) — and not at all for a text too short to nest past the limit (each level takes an
 * opening and a closing bracket), which most arguments are. Anything else is undefined, for the
 * full path: its checks, repairs and messages.
 */
function strictObject(text: string): Record<string, unknown> | undefined {
  let value: unknown;
  try {
    value = safeJSONParse(text);
  } catch {
    return undefined;
  }
  if (!isPlainObject(value)) return undefined;
  return text.length < shortestTooDeep || !nestsDeeperThan(value, maxNestingDepth) ? value : undefined;
}

/** Whether a parsed value nests deeper than `limit` levels; the recursion stops at the limit. */
function nestsDeeperThan(value: unknown, limit: number): boolean {
  if (value === null || typeof value !== "object") return false;
  if (limit === 0) return true;
  if (Array.isArray(value)) {
    for (let index = 0; index < value.length; index++) if (nestsDeeperThan(value[index], limit - 1)) return true;
    return false;
  }
  for (const key in value) if (nestsDeeperThan((value as Record<string, unknown>)[key], limit - 1)) return true;
  return false;
}

/** Deeper arguments are refused: validators and providers recurse, and no real tool needs them. */
export const maxNestingDepth = 64;
/** The shortest JSON text that nests deeper than the limit: an opening and a closing bracket per level. */
const shortestTooDeep = 2 * (maxNestingDepth + 1);

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

/** Strict JSON only (fixInvalidToolCalls: false): a broken argument string is re-asked, not repaired. */
function parseStrictly(text: string): ParsedArguments {
  let value: unknown;
  try {
    value = safeJSONParse(text);
  } catch {
    return { ok: false, problem: `the arguments are not valid JSON: ${preview(text)}` };
  }
  if (!isPlainObject(value))
    return { ok: false, problem: `the arguments must be a JSON object, got ${describe(value)}` };
  return { ok: true, args: value, repairs: [] };
}

function nestedTooDeep(): ParsedArguments {
  return { ok: false, problem: `the arguments are nested deeper than ${maxNestingDepth} levels` };
}

const tooDeep = Symbol("too deep");

/**
 * A copy of arguments a provider sent as an object, in one pass: JSON's view of the data (no
 * undefined, functions or symbols), without `__proto__` or `constructor.prototype` members at any
 * level, refused past the nesting limit (which also bounds the recursion).
 */
function copyArguments(value: unknown, depth: number): unknown {
  if (value === null || typeof value !== "object") return value;
  if (depth > maxNestingDepth) return tooDeep;
  if (Array.isArray(value)) {
    const items: unknown[] = [];
    for (const item of value) {
      const copy = copyArguments(item, depth + 1);
      if (copy === tooDeep) return tooDeep;
      items.push(copy === undefined || typeof copy === "function" || typeof copy === "symbol" ? null : copy);
    }
    return items;
  }
  if (!isPlainObject(value)) return safeJSONParse(JSON.stringify(value)); // a Date, a class instance: as JSON sends it
  const copy: Record<string, unknown> = {};
  for (const key in value) {
    if (!Object.hasOwn(value, key)) continue; // an enumerable key inherited from a polluted Object.prototype
    const member = value[key];
    if (member === undefined || typeof member === "function" || typeof member === "symbol" || key === "__proto__")
      continue;
    if (key === "constructor" && member !== null && typeof member === "object" && "prototype" in member) continue;
    const copied = copyArguments(member, depth + 1);
    if (copied === tooDeep) return tooDeep;
    copy[key] = copied;
  }
  return copy;
}

function describe(value: unknown): string {
  if (Array.isArray(value)) return "an array";
  if (value === null) return "null";
  return typeof value;
}

export function preview(text: string, length = 200): string {
  return text.length > length ? `${JSON.stringify(text.slice(0, length))}…` : JSON.stringify(text);
}
