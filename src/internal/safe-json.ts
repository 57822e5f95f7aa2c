/** Keys that could reach an object's prototype when parsed data is later merged. */
function dropPrototypeKeys(key: string, value: unknown): unknown {
  if (key === "__proto__") return undefined;
  if (key === "constructor" && value !== null && typeof value === "object" && "prototype" in value) {
    return undefined;
  }
  return value;
}

/**
 * Texts up to this length may skip the reviver. They nest at most 2 048 deep, which the reviver
 * handles too, so both ways give the same value; a longer text keeps the reviver, whose recursion
 * also ends absurdly deep input with a RangeError before any later step recurses into it.
 */
const fastPathMaxLength = 4096;

/**
 * Whether the text may hold a `__proto__` or `constructor` key: written out, or hidden behind a
 * `\u` escape (the only other way JSON can spell a letter or `_`).
 */
function mayHoldPrototypeKey(text: string): boolean {
  return text.includes("__proto__") || text.includes("constructor") || text.includes("\\u");
}

/**
 * `JSON.parse` that drops `__proto__` and `constructor.prototype` members. Throws like JSON.parse.
 * The reviver (called once per member, which makes parsing several times slower) is skipped for a
 * short text that cannot hold such a key.
 */
export function safeJSONParse(text: string): unknown {
  if (text.length <= fastPathMaxLength && !mayHoldPrototypeKey(text)) return JSON.parse(text);
  return JSON.parse(text, dropPrototypeKeys);
}
