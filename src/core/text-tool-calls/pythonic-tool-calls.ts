import type { ProviderToolCall } from "../output.js";
import { parsePythonCalls } from "./python-literal.js";

/**
 * Calls written in Python syntax, the form Llama 3.2 / 4 and Gemma are prompted for:
 * `[get_weather(city="Paris")]` as the whole reply (after Llama's `<|python_tag|>` or between its
 * `<|python_start|>`/`<|python_end|>`), or as the whole body of a ```` ```tool_code ```` (Gemma),
 * ```` ```python ```` or bare ```` ``` ```` fence. Llama 3.1's built-in `brave_search.call(query=…)`
 * names the tool before `.call`. Prose with a call somewhere inside it is not read: that is too
 * often an example or an explanation, not a call.
 */
export function pythonicToolCalls(text: string): ProviderToolCall[] | undefined {
  const calls = parsePythonCalls(text) ?? fencedCalls(text);
  return calls?.map(({ name, args }) => ({
    name: name.endsWith(".call") ? name.slice(0, -".call".length) : name,
    args,
  }));
}

function fencedCalls(text: string): ReturnType<typeof parsePythonCalls> {
  const fence = /```(tool_code|tool_call|python|py)?[ \t]*\n([\s\S]*?)```/.exec(text);
  return fence === null ? undefined : parsePythonCalls(fence[2]!);
}
