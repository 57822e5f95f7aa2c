/** A JSON Schema object (draft-07 / 2020-12 subset), as providers receive it. */
export type JSONSchema = { [key: string]: unknown };

export function isPlainObject(value: unknown): value is Record<string, unknown> {
  if (value === null || typeof value !== "object" || Array.isArray(value)) return false;
  const proto = Object.getPrototypeOf(value);
  return proto === Object.prototype || proto === null;
}

/** Own-property lookup: never finds `constructor`, `__proto__` or anything inherited. */
export function ownEntry<T>(record: Record<string, T>, key: string): T | undefined {
  return Object.prototype.hasOwnProperty.call(record, key) ? record[key] : undefined;
}
