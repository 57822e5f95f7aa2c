type HeaderSource = Headers | Record<string, string | string[] | undefined> | undefined | null;

/**
 * How long a provider asked to wait, in milliseconds, from `retry-after-ms` or `Retry-After`
 * (seconds or an HTTP date). Undefined when it did not say.
 */
export function parseRetryAfter(headers: HeaderSource, now = Date.now()): number | undefined {
  const milliseconds = Number(header(headers, "retry-after-ms"));
  if (header(headers, "retry-after-ms") !== undefined && Number.isFinite(milliseconds) && milliseconds >= 0) {
    return milliseconds;
  }
  const value = header(headers, "retry-after");
  if (value === undefined) return undefined;
  const seconds = Number(value);
  if (value.trim() !== "" && Number.isFinite(seconds)) return Math.max(0, seconds * 1000);
  const date = Date.parse(value);
  return Number.isNaN(date) ? undefined : Math.max(0, date - now);
}

function header(headers: HeaderSource, name: string): string | undefined {
  if (!headers) return undefined;
  if (typeof (headers as Headers).get === "function") return (headers as Headers).get(name) ?? undefined;
  for (const [key, value] of Object.entries(headers)) {
    if (key.toLowerCase() === name) return Array.isArray(value) ? value[0] : value;
  }
  return undefined;
}
