/**
 * Where a request marks Anthropic prompt-cache breakpoints (`cache_control`), given as
 * `providerOptions.cacheControl`. Anthropic caches the prompt up to and including each marked block
 * (at most 4 breakpoints a request; the API refuses more).
 */
export interface AnthropicCacheControl {
  /** Mark the last system block. @default false */
  system?: boolean;
  /** Mark the last tool (`true`), or the tools with these names. @default false */
  tools?: boolean | readonly string[];
  /**
   * Mark the last block of these messages: positions in the request's `messages` (keelson's messages,
   * system ones included); a negative position counts from the end (`-1` is the last message).
   * @default none
   */
  messages?: readonly number[];
  /** The cache entry's lifetime. @default "5m" (Anthropic's default) */
  ttl?: "5m" | "1h";
}

/** The `cache_control` value a breakpoint carries. */
export function cacheControlBlock(options: AnthropicCacheControl): { type: "ephemeral"; ttl?: "5m" | "1h" } {
  return options.ttl === undefined ? { type: "ephemeral" } : { type: "ephemeral", ttl: options.ttl };
}

/** `providerOptions.cacheControl`, checked: a wrong shape is a TypeError naming the field. */
export function readCacheControl(value: unknown): AnthropicCacheControl | undefined {
  if (value === undefined) return undefined;
  const fail = (what: string) =>
    new TypeError(
      `providerOptions.cacheControl ${what}: use { system?: boolean, tools?: boolean | string[], messages?: number[], ttl?: "5m" | "1h" }.`,
    );
  if (value === null || typeof value !== "object" || Array.isArray(value)) throw fail("must be an object");
  const { system, tools, messages, ttl } = value as Record<string, unknown>;
  if (system !== undefined && typeof system !== "boolean") throw fail("system must be a boolean");
  if (
    tools !== undefined &&
    typeof tools !== "boolean" &&
    !(Array.isArray(tools) && tools.every((name) => typeof name === "string"))
  )
    throw fail("tools must be a boolean or a list of tool names");
  if (messages !== undefined && !(Array.isArray(messages) && messages.every((index) => Number.isInteger(index))))
    throw fail("messages must be a list of integer positions");
  if (ttl !== undefined && ttl !== "5m" && ttl !== "1h") throw fail('ttl must be "5m" or "1h"');
  return value as AnthropicCacheControl;
}
