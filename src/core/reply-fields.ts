import { ChatModelError } from "./errors/chat-model-error.js";
import { ProviderError } from "./errors/provider-error.js";
import type { ReplySource } from "./errors/unreadable-reply.js";
import { unreadableReply } from "./errors/unreadable-reply.js";

/**
 * Reads a provider reply's fields defensively, for the adapters: each reader takes the value, its
 * path for the message and the reply's source, and returns it typed, or `undefined` when it is
 * absent (`null` or `undefined`); any other shape is an `unreadableReply` ProviderError naming the path.
 */
export function isRecord(value: unknown): value is Record<string, unknown> {
  return value !== null && typeof value === "object" && !Array.isArray(value);
}

export function optionalRecord(value: unknown, path: string, source: ReplySource): Record<string, unknown> | undefined {
  if (value === null || value === undefined) return undefined;
  if (isRecord(value)) return value;
  throw unreadableReply(source, path, "an object", value);
}

export function optionalArray(value: unknown, path: string, source: ReplySource): readonly unknown[] | undefined {
  if (value === null || value === undefined) return undefined;
  if (Array.isArray(value)) return value;
  throw unreadableReply(source, path, "an array", value);
}

export function optionalString(value: unknown, path: string, source: ReplySource): string | undefined {
  if (value === null || value === undefined) return undefined;
  if (typeof value === "string") return value;
  throw unreadableReply(source, path, "a string", value);
}

/** Each element of an optional array as an object (`null` elements included are unreadable). */
export function optionalRecords(
  value: unknown,
  path: string,
  source: ReplySource,
): readonly Record<string, unknown>[] | undefined {
  const items = optionalArray(value, path, source);
  if (items === undefined) return undefined;
  items.forEach((item, index) => {
    if (!isRecord(item)) throw unreadableReply(source, `${path}[${index}]`, "an object", item);
  });
  return items as readonly Record<string, unknown>[];
}

/** A token count: a finite number ≥ 0, else left out (usage is informative; a wrong one never fails a reply). */
export function tokenCount(value: unknown): number | undefined {
  return typeof value === "number" && Number.isFinite(value) && value >= 0 ? value : undefined;
}

/** A field the reply cannot do without: an object, else an `unreadableReply` naming the path. */
export function requiredRecord(value: unknown, path: string, source: ReplySource): Record<string, unknown> {
  if (isRecord(value)) return value;
  throw unreadableReply(source, path, "an object", value);
}

/** A field the reply cannot do without: a string, else an `unreadableReply` naming the path. */
export function requiredString(value: unknown, path: string, source: ReplySource): string {
  if (typeof value === "string") return value;
  throw unreadableReply(source, path, "a string", value);
}

/** A position (a block's or an output item's index): a whole number ≥ 0, else an `unreadableReply`. */
export function requiredIndex(value: unknown, path: string, source: ReplySource): number {
  if (Number.isSafeInteger(value) && (value as number) >= 0) return value as number;
  throw unreadableReply(source, path, "a whole number", value);
}

/**
 * Runs one reader over one part of a reply (a stream event, a whole response): what it throws that
 * is not keelson's own error (a TypeError from a shape no check foresaw) becomes an `unreadableReply`
 * naming the part, so no reader lets a bare TypeError out whatever JSON arrives.
 */
export function readingPart<T>(source: ReplySource, part: string, read: () => T): T {
  try {
    return read();
  } catch (error) {
    if (ChatModelError.isInstance(error)) throw error;
    const said = error instanceof Error ? error.message : "an unknown error";
    throw new ProviderError(
      `${source.providerId} ${source.modelId}: the reply's ${part} could not be read (${said.slice(0, 200)}). ` +
        "The server (or a gateway before it) sent a reply in a shape keelson cannot read.",
      {
        providerId: source.providerId,
        modelId: source.modelId,
        reason: "server",
        code: "unreadable_reply",
        cause: error,
      },
    );
  }
}

/**
 * Reads one event of a typed event stream (Anthropic's, the Responses API's): the event must be an
 * object, its `type` names it in any error, and `read` runs as `readingPart` runs a reader.
 */
export function readingEvent<T>(
  source: ReplySource,
  event: unknown,
  read: (type: string, event: Record<string, unknown>) => T,
): T {
  const raw = requiredRecord(event, "stream event", source);
  const type = typeof raw.type === "string" ? raw.type : "stream event";
  return readingPart(source, `${type} event`, () => read(type, raw));
}
