/** How much of what a server said goes into an error's message: a 16 MB error page is not a message. */
export const maxServerTextLength = 2_000;

/** Secrets shorter than this are ignored: they would cut ordinary words. */
const minSecretLength = 8;

/**
 * Cuts each secret out of every string reachable from an SDK error, in place, at any depth: its
 * message and stack, its parsed body, its response headers (a `Headers` object or a plain record)
 * and its cause chain. A gateway that echoes a key back would otherwise carry it into `cause` and
 * every log of it. Streams and emitters (a response body, a socket) are not entered; secrets
 * shorter than 8 characters are ignored (they would cut ordinary words). The walk keeps its own
 * stack: a body nested thousands deep is walked, not a RangeError.
 */
export function redactSecrets(value: unknown, secrets: readonly (string | undefined)[]): void {
  const usable = usableSecrets(secrets);
  if (usable.length === 0) return;
  const seen = new Set<object>();
  const pending: unknown[] = [value];
  while (pending.length > 0) {
    const next = pending.pop();
    if (next === null || typeof next !== "object" || seen.has(next) || !isData(next)) continue;
    seen.add(next);
    redactOwnStrings(next, usable, pending);
  }
}

/** The text with each secret (8 characters or more; shorter ones would cut ordinary words) cut out. */
export function redactText(text: string, secrets: readonly (string | undefined)[]): string {
  let clean = text;
  for (const secret of usableSecrets(secrets))
    if (clean.includes(secret)) clean = clean.split(secret).join("[redacted]");
  return clean;
}

/**
 * At most `maxLength` characters of `text`, its secrets cut out first (a key across the cut would
 * otherwise leave its first characters behind), with how much more there was. Only the start is
 * read, however long the text: the window redacted is the excerpt plus the longest secret.
 */
export function redactedExcerpt(text: string, secrets: readonly (string | undefined)[], maxLength: number): string {
  if (text.length <= maxLength) return redactText(text, secrets);
  const longest = usableSecrets(secrets).reduce((length, secret) => Math.max(length, secret.length), 0);
  const clean = redactText(text.slice(0, maxLength + longest), secrets).slice(0, maxLength);
  return `${clean}… (${text.length - maxLength} more characters)`;
}

function usableSecrets(secrets: readonly (string | undefined)[]): string[] {
  return secrets.filter((secret): secret is string => typeof secret === "string" && secret.length >= minSecretLength);
}

function redactOwnStrings(value: object, secrets: readonly string[], pending: unknown[]): void {
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
    } else if (field !== null && typeof field === "object") {
      pending.push(field);
    }
  }
  if (value instanceof Map) {
    for (const [key, entry] of value) {
      if (typeof entry === "string") {
        const clean = redactText(entry, secrets);
        if (clean !== entry) value.set(key, clean);
      } else pending.push(entry);
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
