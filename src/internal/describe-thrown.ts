/**
 * What was thrown, as text, whatever it was: an Error whose `message` getter throws, an
 * object without a prototype (`String()` throws), one whose `toString` throws, a revoked Proxy.
 */
export function describeThrown(error: unknown): string {
  try {
    if (error instanceof Error) {
      const message: unknown = error.message;
      if (typeof message === "string") return message;
    }
  } catch {
    // An unreadable message: try the value itself.
  }
  try {
    return String(error);
  } catch {
    // No usable toString: say what kind of value it was.
  }
  try {
    return `an unprintable ${Object.prototype.toString.call(error)}`;
  } catch {
    return "an unprintable value";
  }
}
