import { stableStringify } from "../../internal/stable-stringify.js";

/**
 * The canonical text of a provider input: stable key order, pretty-printed so diffs read well, and
 * tool-call ids numbered by first appearance. keelson makes ids up where a provider sends none
 * (Ollama, the response-format and prompt rungs), so a replayed conversation carries other ids than
 * the recorded one; what must match is which call each tool result answers, not the random text.
 */
export function canonicalInput(input: unknown): string {
  return JSON.stringify(numberToolCallIds(JSON.parse(stableStringify(input)) as { messages?: unknown }), null, 2);
}

function numberToolCallIds(input: { messages?: unknown }): unknown {
  if (!Array.isArray(input.messages)) return input;
  const numbers = new Map<string, string>();
  const numbered = (id: unknown) => {
    if (typeof id !== "string") return id;
    if (!numbers.has(id)) numbers.set(id, `tool-call-${numbers.size + 1}`);
    return numbers.get(id);
  };
  const messages = input.messages.map((message: { role?: string; content?: unknown; toolCallId?: unknown }) => {
    if (message.role === "tool") return { ...message, toolCallId: numbered(message.toolCallId) };
    if (message.role === "assistant" && Array.isArray(message.content)) {
      const content = message.content.map((part: { type?: string; id?: unknown }) =>
        part.type === "tool-call" ? { ...part, id: numbered(part.id) } : part,
      );
      return { ...message, content };
    }
    return message;
  });
  return { ...input, messages };
}

/** A unified-style line diff of two texts (`-` recorded, `+` actual), showing only changed lines with a little context. */
export function lineDiff(recorded: string, actual: string, context = 2): string {
  const a = recorded.split("\n").slice(0, 2_000);
  const b = actual.split("\n").slice(0, 2_000);
  const lcs: number[][] = Array.from({ length: a.length + 1 }, () => new Array<number>(b.length + 1).fill(0));
  for (let i = a.length - 1; i >= 0; i--) {
    for (let j = b.length - 1; j >= 0; j--) {
      lcs[i]![j] = a[i] === b[j] ? lcs[i + 1]![j + 1]! + 1 : Math.max(lcs[i + 1]![j]!, lcs[i]![j + 1]!);
    }
  }
  const lines: { mark: " " | "-" | "+"; text: string }[] = [];
  let i = 0;
  let j = 0;
  while (i < a.length || j < b.length) {
    if (i < a.length && j < b.length && a[i] === b[j]) {
      lines.push({ mark: " ", text: a[i]! });
      i++;
      j++;
    } else if (j < b.length && (i >= a.length || lcs[i]![j + 1]! >= lcs[i + 1]![j]!))
      lines.push({ mark: "+", text: b[j++]! });
    else lines.push({ mark: "-", text: a[i++]! });
  }
  const keep = lines.map((line, index) =>
    lines.slice(Math.max(0, index - context), index + context + 1).some((near) => near.mark !== " "),
  );
  return lines
    .filter((_line, index) => keep[index])
    .map((line) => `${line.mark} ${line.text}`)
    .join("\n");
}

/** How many lines two texts share: the nearest recorded input has the most. */
export function sharedLines(recorded: string, actual: string): number {
  const counts = new Map<string, number>();
  for (const line of recorded.split("\n")) counts.set(line, (counts.get(line) ?? 0) + 1);
  let shared = 0;
  for (const line of actual.split("\n")) {
    const count = counts.get(line) ?? 0;
    if (count > 0) {
      shared++;
      counts.set(line, count - 1);
    }
  }
  return shared;
}
