import { ProviderError } from "./provider-error.js";

/** Where a reply came from, for the message. */
export interface ReplySource {
  providerId: string;
  modelId: string;
}

/**
 * A provider reply keelson cannot read: `field` (its path in the provider's JSON) holds `value`
 * where `expected` belongs. A 200 whose body has the wrong shape is most likely a gateway's or a
 * proxy's fault, or a server under strain: a `server` ProviderError, retryable (a stream that had
 * delivered chunks is still never retried silently).
 */
export function unreadableReply(source: ReplySource, field: string, expected: string, value: unknown): ProviderError {
  return new ProviderError(
    `${source.providerId} ${source.modelId}: the reply's ${field} is ${shapeOf(value)}, not ${expected}. ` +
      "The server (or a gateway before it) sent a reply in a shape keelson cannot read.",
    { ...source, reason: "server", code: "unreadable_reply" },
  );
}

function shapeOf(value: unknown): string {
  if (value === null) return "null";
  if (Array.isArray(value)) return "an array";
  if (typeof value === "string") return value.length > 40 ? "a string" : `the string ${JSON.stringify(value)}`;
  if (typeof value === "object") return "an object";
  if (typeof value === "undefined") return "missing";
  return `the ${typeof value} ${String(value)}`;
}
