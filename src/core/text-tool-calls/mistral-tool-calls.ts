import type { ProviderToolCall } from "../output.js";

/** Mistral's tool-call marker, which a server that does not parse it leaves in the text. */
export const mistralMarker = "[TOOL_CALLS]";

/**
 * Calls in Mistral's v11+ form, `[TOOL_CALLS]name[ARGS]{…}` (or `…name[CALL_ID]id[ARGS]{…}`),
 * one marker per call; the arguments are left raw for the caller to parse. Undefined when the
 * text has no `[ARGS]` marker (the older `[TOOL_CALLS] [{"name": …, "arguments": …}]` form is
 * JSON, read as such once the marker is cut off).
 */
export function mistralToolCalls(text: string, limit: number): ProviderToolCall[] | undefined {
  if (!text.includes("[ARGS]")) return undefined;
  const calls: ProviderToolCall[] = [];
  for (const segment of text.split(mistralMarker).slice(1, limit + 1)) {
    const argsAt = segment.indexOf("[ARGS]");
    if (argsAt === -1) continue;
    const head = segment.slice(0, argsAt);
    const idAt = head.indexOf("[CALL_ID]");
    const name = (idAt === -1 ? head : head.slice(0, idAt)).trim();
    if (name === "") continue;
    calls.push({ name, args: segment.slice(argsAt + "[ARGS]".length).trim() });
  }
  return calls;
}
