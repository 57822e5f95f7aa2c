import type { Message } from "../messages.js";

const temporary = new WeakSet<object>();

/**
 * Marks messages keelson adds for one request only (a re-ask's guidance, `prepareStep`'s note on
 * unavailable tools): a prompt-cache breakpoint is never placed on them, since the next request
 * will not repeat them. Returns the messages given.
 */
export function markTemporary<M extends Message>(...messages: M[]): M[] {
  for (const message of messages) temporary.add(message);
  return messages;
}

/** Whether keelson added this message for one request only (see `markTemporary`). */
export function isTemporaryMessage(message: unknown): boolean {
  return typeof message === "object" && message !== null && temporary.has(message);
}
