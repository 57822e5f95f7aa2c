import type { Message } from "../messages.js";
import { isTemporaryMessage } from "./temporary-messages.js";

/** The most cache breakpoints Anthropic and Bedrock take in one request (a fifth is a 400). */
export const maxCachePoints = 4;

/** Breakpoints a caller placed by hand (Anthropic's `providerOptions.cacheControl`): counted, never placed twice. */
export interface CallerCachePoints {
  /** The caller marked the system prompt. */
  system?: boolean;
  /** How many tools the caller marked. */
  tools?: number;
  /** The message positions the caller marked (non-negative, in range). */
  messages?: ReadonlySet<number>;
}

/** What a provider's adapter tells `placeCachePoints` about its request. */
export interface CachePointRules {
  /** Whether the request carries tools (a breakpoint may follow them). */
  tools: boolean;
  /** The caller's own breakpoints. @default none */
  caller?: CallerCachePoints | undefined;
  /** A message the provider takes no breakpoint on (Bedrock: a tool result): the point walks back past it. @default none */
  refuses?: ((message: Message) => boolean) | undefined;
}

/**
 * Where keelson's breakpoints go, in prompt order (tools, then system, then messages), each after
 * the previous one: `tools` after the tool list, `system` on a system message's position, `message`
 * on the last message's position. Positions index the request's messages.
 */
export interface CachePoints {
  tools: boolean;
  system?: number;
  message?: number;
}

/**
 * Places prompt-cache breakpoints for `promptCache: "auto"`: on the last system message, after the
 * tools and on the last message that is not a system one — never on one of keelson's temporary
 * messages nor on one `rules.refuses`, walking back to the last that may take it — and no more than
 * four in all with the caller's. When fewer are left, the latest point wins (it caches the most):
 * the message, then the system prompt, then the tools. A point the caller already placed is not
 * placed again.
 */
export function placeCachePoints(messages: readonly Message[], rules: CachePointRules): CachePoints {
  const caller = rules.caller ?? {};
  let left = maxCachePoints - (caller.system ? 1 : 0) - (caller.tools ?? 0) - (caller.messages?.size ?? 0);
  const takes = (message: Message | undefined) =>
    message !== undefined && !isTemporaryMessage(message) && !(rules.refuses?.(message) ?? false);
  const points: CachePoints = { tools: false };
  const message = lastIndex(messages, (each) => each.role !== "system" && takes(each));
  if (message !== undefined && left > 0 && !caller.messages?.has(message)) {
    points.message = message;
    left--;
  }
  const system = lastIndex(messages, (each) => each.role === "system" && takes(each));
  if (system !== undefined && left > 0 && !caller.system && !caller.messages?.has(system)) {
    points.system = system;
    left--;
  }
  if (rules.tools && left > 0 && !caller.tools) points.tools = true;
  return points;
}

/**
 * Whether a message sends no block a breakpoint can follow: a blank text, no parts, or reasoning only
 * (a breakpoint on a thinking block is refused, and unsigned reasoning is not sent at all).
 */
export function carriesNoContent(message: Message): boolean {
  if (typeof message.content === "string") return message.content.trim() === "";
  return message.content.every((part) => part.type === "reasoning");
}

function lastIndex(messages: readonly Message[], accept: (message: Message) => boolean): number | undefined {
  for (let index = messages.length - 1; index >= 0; index--) if (accept(messages[index]!)) return index;
  return undefined;
}
