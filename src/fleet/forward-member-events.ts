import type { ChatModelLike } from "../core/model/chat-model-like.js";
import type { ChatModelEvents } from "../core/events.js";
import type { ChatModelInput } from "../core/input.js";

/** The events of a member's call that the router's listeners see too (its own lifecycle events are its own). */
const forwarded = ["newToken", "retry", "repair", "fallback", "cacheHit", "warning"] as const;

type Emit = <E extends keyof ChatModelEvents>(event: E, payload: Parameters<ChatModelEvents[E]>[0]) => void;

/**
 * Passes on the events of one member call — the call made with `memberInput`, a copy of the
 * caller's input that no other call shares — as events of the router's call (the caller's
 * input and callId). Returns what stops it.
 */
export function forwardMemberEvents(
  member: ChatModelLike,
  memberInput: ChatModelInput,
  input: ChatModelInput,
  callId: number,
  emit: Emit,
): () => void {
  const emitter = member.emitter;
  const listeners = forwarded.map((event) => {
    const listener = (payload: { input: ChatModelInput }) => {
      if (payload.input !== memberInput) return;
      (emit as (event: string, payload: unknown) => void)(event, { ...payload, input, callId });
    };
    emitter.on(event, listener);
    return () => emitter.off(event, listener);
  });
  return () => {
    for (const off of listeners) off();
  };
}
