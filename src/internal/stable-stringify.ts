/**
 * JSON with object keys sorted at every level, so equal data always gives the same string.
 * `undefined` members are dropped as JSON.stringify does; functions and symbols are skipped.
 */
export function stableStringify(value: unknown): string {
  return JSON.stringify(sortKeys(value));
}

function sortKeys(value: unknown): unknown {
  if (value === null || typeof value !== "object") return value;
  if (Array.isArray(value)) return value.map(sortKeys);
  if (typeof (value as { toJSON?: unknown }).toJSON === "function") return value;
  // No prototype: an own "__proto__" member (parsed JSON can hold one) stays a member, not the prototype.
  const sorted = Object.create(null) as Record<string, unknown>;
  for (const key of Object.keys(value).sort()) {
    const member = (value as Record<string, unknown>)[key];
    if (member === undefined || typeof member === "function" || typeof member === "symbol") continue;
    sorted[key] = sortKeys(member);
  }
  return sorted;
}
