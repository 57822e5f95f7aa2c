/** The headers the `ollama` SDK sets on every request, dropping a caller's header of the same name. */
const sdkOwnHeaders = new Set(["content-type", "accept", "user-agent"]);

/**
 * The caller's headers the SDK would drop (Content-Type, Accept, User-Agent, in any case), to be
 * put back on each request; undefined when there are none, so most requests pay nothing.
 */
export function sdkHeaderOverrides(headers: Record<string, string> | undefined): Record<string, string> | undefined {
  const overrides = Object.entries(headers ?? {}).filter(([name]) => sdkOwnHeaders.has(name.toLowerCase()));
  return overrides.length > 0 ? Object.fromEntries(overrides) : undefined;
}

/** A request's init with the caller's headers in place of the SDK's own of the same name. */
export function withHeaderOverrides(init: RequestInit | undefined, overrides: Record<string, string>): RequestInit {
  const headers = new Headers(init?.headers);
  for (const [name, value] of Object.entries(overrides)) headers.set(name, value);
  return { ...init, headers };
}
