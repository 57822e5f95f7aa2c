/** How much of what a server said goes into an error's message: a 16 MB error page is not a message. */
export const maxServerTextLength = 2_000;

/** Secrets shorter than this are ignored: they would cut ordinary words. */
const minSecretLength = 8;

/**
 * A copy of `value` with each secret cut out of every string reachable from it, at any depth: an
 * SDK error's message and stack, its parsed body, its response headers (a `Headers` object or a
 * plain record), its cause chain, Maps and Sets. A gateway that echoes a key back would otherwise
 * carry it into `cause` and every log of it.
 *
 * What it was given is never changed (a frozen error, a fetch `Headers` guarded as immutable, a
 * getter without a setter are all fine), and it never throws: a part that cannot be read (a getter
 * or a Proxy trap that throws) is left out of the copy. Only what leads to a secret is copied —
 * errors keep their prototype (`instanceof` and `constructor.name` still work), `Headers` stay
 * `Headers` — and the rest is shared as it is, so a value that holds no secret comes back itself.
 * Streams and emitters (a response body, a socket) are not entered; secrets shorter than 8
 * characters are ignored (they would cut ordinary words). The walk keeps its own stack: a body
 * nested thousands deep is walked, not a RangeError.
 */
export function redactSecrets<T>(value: T, secrets: readonly (string | undefined)[]): T {
  const usable = usableSecrets(secrets);
  if (usable.length === 0) return value;
  try {
    if (typeof value === "string") return redactText(value, usable) as T;
    const leading = objectsLeadingToSecrets(value, usable);
    return leading.size === 0 ? value : (copyClean(value, usable, leading) as T);
  } catch {
    // Nothing above should throw; if something still does, no part of the original is passed on.
    return (value instanceof Error ? new Error("[redacted: an error that could not be copied]") : undefined) as T;
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

/** One reachable part of an object: a key and its value (for Maps, Sets and Headers, the entries). */
type Part = readonly [key: unknown, value: unknown];

/**
 * The object's parts as they are now, read without changing anything: own properties (an accessor
 * read through its getter), an Error's message, stack and cause, a Map's, Set's or Headers' entries.
 * What throws while being read is left out.
 */
function partsOf(value: object): Part[] {
  const parts: Part[] = [];
  if (!isData(value)) return parts;
  if (value instanceof Headers || value instanceof Map || value instanceof Set) {
    try {
      for (const entry of value as Iterable<unknown>) {
        if (value instanceof Set) parts.push([entry, entry]);
        else parts.push(entry as Part);
      }
    } catch {
      // An entry that cannot be read is left out.
    }
    if (value instanceof Headers) return parts;
  }
  let names: PropertyKey[];
  try {
    names = Reflect.ownKeys(value);
  } catch {
    return parts;
  }
  for (const name of names) {
    try {
      const descriptor = Object.getOwnPropertyDescriptor(value, name);
      if (!descriptor) continue;
      parts.push([name, "value" in descriptor ? descriptor.value : Reflect.get(value, name)]);
    } catch {
      // A getter or a Proxy trap that throws: left out.
    }
  }
  if (value instanceof Error) {
    for (const name of ["message", "stack", "cause"] as const) {
      if (names.includes(name)) continue;
      try {
        const field: unknown = value[name];
        if (field !== undefined) parts.push([name, field]);
      } catch {
        // Left out.
      }
    }
  }
  return parts;
}

function holdsSecret(text: string, secrets: readonly string[]): boolean {
  return secrets.some((secret) => text.includes(secret));
}

/** The objects reachable from `root` from which a string holding a secret can be reached (cycles included). */
function objectsLeadingToSecrets(root: unknown, secrets: readonly string[]): Set<object> {
  const parents = new Map<object, object[]>();
  const holding: object[] = [];
  const seen = new Set<object>();
  const pending: object[] = isObject(root) ? [root] : [];
  while (pending.length > 0) {
    const next = pending.pop()!;
    if (seen.has(next)) continue;
    seen.add(next);
    for (const [key, field] of partsOf(next)) {
      for (const part of [key, field]) {
        if (typeof part === "string") {
          if (holdsSecret(part, secrets)) holding.push(next);
        } else if (isObject(part)) {
          let list = parents.get(part);
          if (!list) parents.set(part, (list = []));
          list.push(next);
          pending.push(part);
        }
      }
    }
  }
  const leading = new Set<object>();
  const up = [...holding];
  while (up.length > 0) {
    const next = up.pop()!;
    if (leading.has(next)) continue;
    leading.add(next);
    up.push(...(parents.get(next) ?? []));
  }
  return leading;
}

/** The clean copy: each object on a path to a secret copied once (cycles kept as cycles), the rest shared. */
function copyClean(root: unknown, secrets: readonly string[], leading: Set<object>): unknown {
  const copies = new Map<object, object>();
  const pending: [original: object, copy: object][] = [];
  const cleanOf = (part: unknown): unknown => {
    if (typeof part === "string") return redactText(part, secrets);
    if (!isObject(part) || !leading.has(part)) return part;
    let copy = copies.get(part);
    if (!copy) {
      copy = shellOf(part);
      copies.set(part, copy);
      pending.push([part, copy]);
    }
    return copy;
  };
  const result = cleanOf(root);
  while (pending.length > 0) {
    const [original, copy] = pending.pop()!;
    const parts = partsOf(original);
    if (copy instanceof Headers) {
      for (const [name, header] of parts) {
        try {
          copy.append(String(name), String(cleanOf(header)));
        } catch {
          // A header the platform will not take back is left out.
        }
      }
    } else if (copy instanceof Map) for (const [key, field] of parts) copy.set(cleanOf(key), cleanOf(field));
    else if (copy instanceof Set) for (const [, field] of parts) copy.add(cleanOf(field));
    else {
      for (const [name, field] of parts) {
        if (Array.isArray(copy) && name === "length") continue;
        const enumerable = Object.prototype.propertyIsEnumerable.call(original, name as PropertyKey);
        Object.defineProperty(copy, name as PropertyKey, {
          value: cleanOf(field),
          writable: true,
          configurable: true,
          enumerable: enumerable && !(copy instanceof Error && (name === "stack" || name === "message")),
        });
      }
    }
  }
  return result;
}

/** An empty object of the same kind: Headers, Map, Set, array, or an object with the same prototype. */
function shellOf(value: object): object {
  if (value instanceof Headers) return new Headers();
  if (value instanceof Map) return new Map();
  if (value instanceof Set) return new Set();
  if (Array.isArray(value)) return [];
  let prototype: object | null = null;
  try {
    prototype = Object.getPrototypeOf(value) as object | null;
  } catch {
    // A Proxy whose trap throws: a plain object.
  }
  return Object.create(prototype) as object;
}

function isObject(value: unknown): value is object {
  return (typeof value === "object" && value !== null) || typeof value === "function";
}

/** Plain data, errors and headers; not streams, sockets, emitters, functions or binary buffers. */
function isData(value: object): boolean {
  if (typeof value === "function") return false;
  if (ArrayBuffer.isView(value) || value instanceof ArrayBuffer) return false;
  try {
    const candidate = value as { on?: unknown; pipe?: unknown; getReader?: unknown };
    return (
      typeof candidate.on !== "function" &&
      typeof candidate.pipe !== "function" &&
      typeof candidate.getReader !== "function"
    );
  } catch {
    return false;
  }
}
