import { isPlainObject } from "../schema/json-schema.js";
import type { RepairKind } from "../output.js";
import { parseJSONValue } from "./parse-json-value.js";
import { safeJSONParse } from "../../internal/safe-json.js";

export type ParsedArguments =
  | { ok: true; args: Record<string, unknown>; repairs: RepairKind[] }
  | { ok: false; problem: string };

/**
 * Turns whatever a provider sent as tool arguments into an object: an object as is (copied without
 * prototype keys), a JSON string (repaired if need be), a doubly encoded string, or an empty value
 * for a tool that takes nothing.
 */
export function parseToolArguments(raw: unknown): ParsedArguments {
  if (raw === undefined || raw === null) return { ok: true, args: {}, repairs: ["empty-args"] };
  if (typeof raw === "string") return parseArgumentString(raw);
  if (isPlainObject(raw)) return { ok: true, args: withoutPrototypeKeys(raw), repairs: [] };
  return { ok: false, problem: `the arguments must be a JSON object, got ${describe(raw)}` };
}

function parseArgumentString(text: string): ParsedArguments {
  if (text.trim() === "") return { ok: true, args: {}, repairs: ["empty-args"] };
  const parsed = parseJSONValue(text);
  if (!parsed) return { ok: false, problem: `the arguments are not valid JSON: ${preview(text)}` };
  if (!isPlainObject(parsed.value)) {
    return { ok: false, problem: `the arguments must be a JSON object, got ${describe(parsed.value)}` };
  }
  return { ok: true, args: parsed.value, repairs: parsed.repairs };
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
