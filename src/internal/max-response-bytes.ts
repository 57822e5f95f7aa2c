/** The response body cap when a model sets none: far past any reply, well short of what hurts a process. */
export const defaultMaxResponseBytes = 64 * 1024 * 1024;

/** The `maxResponseBytes` option, checked: a positive integer, or `Infinity` for no cap. */
export function checkMaxResponseBytes(value: unknown): number {
  if (value === undefined) return defaultMaxResponseBytes;
  if (value === Infinity || (typeof value === "number" && Number.isSafeInteger(value) && value > 0)) return value;
  throw new TypeError(
    `maxResponseBytes must be a positive integer (bytes) or Infinity for no cap, got ${String(value)}.`,
  );
}
