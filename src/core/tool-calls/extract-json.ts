/**
 * The JSON objects or arrays in a model's text: code fences, leading chatter and trailing reasoning
 * are cut away by scanning for the balanced end (strings and escapes respected). A ```` ``` ````
 * fence whose body starts with JSON is preferred to brackets in the prose around it; else the
 * first balanced value `parses` accepts (so a `{placeholder}` or `[1]` in leading prose is passed
 * over), else the first one. An unbalanced (truncated) value runs to the end of the text, for
 * jsonrepair to close. The values that follow the chosen one, separated by nothing but whitespace
 * (`{…}\n{…}`: one per line, or two written back to back), come after it. Linear: each candidate
 * is scanned from where the previous one ended.
 */
export function extractJSONValues(
  text: string,
  parses: (candidate: string) => boolean = () => true,
): string[] | undefined {
  const fence = fencedJSONStart(text);
  let first: { start: number; end: number } | undefined;
  let chosen: { start: number; end: number } | undefined;
  // Bounded: a reply that is a wall of `{x}` costs a few parses, not one per brace.
  for (
    let start = fence === -1 ? firstJSONStart(text, 0) : fence, tries = 0;
    start !== -1 && tries < maxCandidates;
    tries++
  ) {
    const end = balancedEnd(text, start);
    const candidate = { start, end };
    first ??= candidate;
    if (end === -1) break; // truncated: every later bracket is inside it

    if (fence !== -1 || parses(text.slice(start, end))) {
      chosen = candidate;
      break;
    }
    start = firstJSONStart(text, end);
  }
  chosen ??= first;
  if (chosen === undefined) return undefined;
  if (chosen.end === -1) return [text.slice(chosen.start).replace(/\s*```\s*$/, "")];
  const values = [text.slice(chosen.start, chosen.end)];
  for (let next = skipWhitespace(text, chosen.end); values.length < 64 && (text[next] === "{" || text[next] === "[");) {
    const end = balancedEnd(text, next);
    if (end === -1) break;
    values.push(text.slice(next, end));
    next = skipWhitespace(text, end);
  }
  return values;
}

/** At most this many balanced candidates are tried before the first one is taken. */
const maxCandidates = 32;

/** The index just past the value starting at `start`, or -1 when it never closes. */
export function balancedEnd(text: string, start: number): number {
  let depth = 0;
  let inString = false;
  for (let i = start; i < text.length; i++) {
    const char = text[i];
    if (inString) {
      if (char === "\\") i++;
      else if (char === '"') inString = false;
      continue;
    }
    if (char === '"') inString = true;
    else if (char === "{" || char === "[") depth++;
    else if (char === "}" || char === "]") {
      depth--;
      if (depth === 0) return i + 1;
    }
  }
  return -1;
}

/** Where the JSON of the first ```` ``` ```` fence whose body starts with `{` or `[` begins, else -1. */
function fencedJSONStart(text: string): number {
  const match = /```[^\n`]*\n\s*[[{]/.exec(text);
  return match === null ? -1 : match.index + match[0].length - 1;
}

function skipWhitespace(text: string, from: number): number {
  let i = from;
  while (i < text.length && /\s/.test(text[i]!)) i++;
  return i;
}

function firstJSONStart(text: string, from: number): number {
  const brace = text.indexOf("{", from);
  const bracket = text.indexOf("[", from);
  if (brace === -1) return bracket;
  if (bracket === -1) return brace;
  return Math.min(brace, bracket);
}
