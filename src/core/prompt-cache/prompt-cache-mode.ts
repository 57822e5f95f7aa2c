/**
 * Prompt caching on providers with explicit cache breakpoints (Anthropic; Bedrock's `cachePoint`
 * for Claude and Nova): `"auto"` has keelson place them (the system prompt, the tools, the last
 * message that is not one of its temporary guidance messages; at most four in all, the caller's own
 * counted); `"off"` places none. Other providers cache on their own, or not at all: there it changes nothing.
 */
export type PromptCacheMode = "auto" | "off";

/** A `promptCache` option, checked: anything but `"auto"`, `"off"` or undefined is a TypeError naming `where`. */
export function readPromptCacheMode(value: unknown, where: string): PromptCacheMode | undefined {
  if (value === undefined || value === "auto" || value === "off") return value;
  throw new TypeError(`${where} must be "auto" or "off", got ${JSON.stringify(value) ?? String(value)}.`);
}
