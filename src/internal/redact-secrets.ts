/**
 * Cuts each secret out of every string reachable from an SDK error, in place: its message and stack,
 * its parsed body, its response headers (a `Headers` object or a plain record) and its cause chain.
 * A gateway that echoes a key back would otherwise carry it into `cause` and every log of it.
 * Streams and emitters (a response body, a socket) are not entered; secrets shorter than 8 characters
 * are ignored (they would cut ordinary words).
 */
export function redactSecrets(value: unknown, secrets: readonly (string | undefined)[]): void {
  if (secrets.some((secret) => typeof secret === "string" && secret.length >= 8)) visit(value, secrets, new Set(), 0);
}

/** The text with each secret (8 characters or more; shorter ones would cut ordinary words) cut out. */
export function redactText(text: string, secrets: readonly (string | undefined)[]): string {
  let clean = text;
  for (const secret of secrets)
    if (typeof secret === "string" && secret.length >= 8) clean = clean.split(secret).join("[redacted]");
  return clean;
}

function visit(value: unknown, secrets: readonly (string | undefined)[], seen: Set<object>, depth: number): void {
  if (value === null || typeof value !== "object" || seen.has(value) || depth > 8 || !isData(value)) return;
  seen.add(value);
  if (value instanceof Headers) {
    for (const [name, header] of [...value]) {
      const clean = redactText(header, secrets);
      if (clean !== header) value.set(name, clean);
    }
    return;
  }
  const names = new Set<PropertyKey>([
    ...Reflect.ownKeys(value),
    ...(value instanceof Error ? ["message", "stack", "cause"] : []),
  ]);
  for (const name of names) {
    const descriptor = Object.getOwnPropertyDescriptor(value, name);
    if (!descriptor || !("value" in descriptor)) continue;
    const field: unknown = descriptor.value;
    if (typeof field === "string") {
      const clean = redactText(field, secrets);
      if (clean !== field && (descriptor.writable || descriptor.configurable)) {
        Object.defineProperty(value, name, { ...descriptor, value: clean });
      }
    } else {
      visit(field, secrets, seen, depth + 1);
    }
  }
}

/** Plain data, errors and headers; not streams, sockets, emitters or binary buffers. */
function isData(value: object): boolean {
  if (ArrayBuffer.isView(value) || value instanceof ArrayBuffer) return false;
  const candidate = value as { on?: unknown; pipe?: unknown; getReader?: unknown };
  return (
    typeof candidate.on !== "function" &&
    typeof candidate.pipe !== "function" &&
    typeof candidate.getReader !== "function"
  );
}
