/** Keys that could reach an object's prototype when parsed data is later merged. */
function dropPrototypeKeys(key: string, value: unknown): unknown {
  if (key === "__proto__") return undefined;
  if (key === "constructor" && value !== null && typeof value === "object" && "prototype" in value) {
    return undefined;
  }
  return value;
}

/** `JSON.parse` that drops `__proto__` and `constructor.prototype` members. Throws like JSON.parse. */
export function safeJSONParse(text: string): unknown {
  return JSON.parse(text, dropPrototypeKeys);
}
