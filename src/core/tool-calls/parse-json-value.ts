import { lazyRequire } from "../loading/lazy-require.js";
import { safeJSONParse } from "../../internal/safe-json.js";
import type { RepairKind } from "../output.js";
import { extractJSONValues } from "./extract-json.js";

// Loaded on the first reply that needs a repair: most never do, and importing keelson should not pay for it.
const loadJSONRepair = lazyRequire<typeof import("jsonrepair")>("jsonrepair", "repairing broken JSON from a model");

/** Past this size keelson does not attempt a repair (it would cost more than a re-ask). */
export const maxRepairLength = 256 * 1024;

export interface ParsedJSON {
  value: unknown;
  /** What had to be done to get a value, in order. */
  repairs: RepairKind[];
}

/**
 * Parses a model's JSON the forgiving way: strict JSON first; then a value encoded twice; then the
 * JSON cut out of fences and chatter; then jsonrepair. Returns undefined when nothing parses.
 */
export function parseJSONValue(text: string): ParsedJSON | undefined {
  const repairs: RepairKind[] = [];
  let value = tryParse(text);
  if (value === failed) {
    if (text.length > maxRepairLength) return undefined;
    const values = extractJSONValues(text, (candidate) => tryParse(candidate) !== failed);
    if (values === undefined) return fencedScalar(text);
    // Two values back to back (`{…}{…}`, often two calls merged into one): keeping the first would drop the rest.
    if (values.length > 1) return undefined;
    const extracted = values[0]!;
    if (extracted.trim() !== text.trim()) repairs.push("stripped-wrapper");
    value = tryParse(extracted);
    if (value === failed) {
      value = tryRepair(extracted);
      if (value === failed) return undefined;
      repairs.push("json-repaired");
    }
  }
  // A JSON string holding JSON is the doubly encoded case: decode once more.
  for (let depth = 0; typeof value === "string" && depth < 2; depth++) {
    const inner = value.trim();
    if (!inner.startsWith("{") && !inner.startsWith("[")) break;
    const decoded = parseJSONValue(inner);
    if (!decoded) break;
    value = decoded.value;
    repairs.push("double-encoded", ...decoded.repairs);
  }
  return { value, repairs };
}

const failed = Symbol("failed");

/** A fenced value with no bracket to find it by (`"high"`, `42`, `true`), strictly parsed. */
function fencedScalar(text: string): ParsedJSON | undefined {
  const body = fencedBody(text);
  const value = body === undefined ? failed : tryParse(body);
  return value === failed ? undefined : { value, repairs: ["stripped-wrapper"] };
}

/**
 * The JSON values a model wrote one after another (`{…}\n{…}`), each parsed the forgiving way;
 * undefined when the text holds fewer than two.
 */
export function parseJSONValues(text: string): ParsedJSON[] | undefined {
  if (text.length > maxRepairLength) return undefined;
  const values = extractJSONValues(text, (candidate) => tryParse(candidate) !== failed);
  if (values === undefined || values.length < 2) return undefined;
  const parsed: ParsedJSON[] = [];
  for (const value of values) {
    const one = parseJSONValue(value);
    if (one === undefined) return undefined;
    parsed.push(one);
  }
  return parsed;
}

function tryParse(text: string): unknown {
  try {
    return safeJSONParse(text);
  } catch {
    return failed;
  }
}

function tryRepair(text: string): unknown {
  try {
    return safeJSONParse(loadJSONRepair().jsonrepair(text));
  } catch {
    return failed;
  }
}

/**
 * The trimmed body of the first ```` ``` ```` fence in a model's text, or undefined when there is
 * none: where a JSON value that is no object or array (`"high"`, `42`) is found, having no bracket
 * to scan for.
 */
function fencedBody(text: string): string | undefined {
  const match = /```[^\n`]*\n([\s\S]*?)```/.exec(text);
  return match === null ? undefined : match[1]!.trim();
}
