/**
 * The first JSON object or array in a model's text: code fences, leading chatter and trailing
 * reasoning are cut away by scanning for the balanced end (strings and escapes respected). An
 * unbalanced (truncated) value runs to the end of the text, for jsonrepair to close.
 */
export function extractJSON(text: string): string | undefined {
  const start = firstJSONStart(text);
  if (start === -1) return undefined;
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
      if (depth === 0) return text.slice(start, i + 1);
    }
  }
  return text.slice(start).replace(/\s*```\s*$/, "");
}

function firstJSONStart(text: string): number {
  const brace = text.indexOf("{");
  const bracket = text.indexOf("[");
  if (brace === -1) return bracket;
  if (bracket === -1) return brace;
  return Math.min(brace, bracket);
}
