import type { ChatModelLike } from "../core/model/chat-model-like.js";
import type { EventSink } from "../core/emitter/chat-model-emitter.js";
import type { ChatModelEvents } from "../core/events.js";
import type { ChatModelInput } from "../core/input.js";

/** The events of a member's call that the router's listeners see too (its own lifecycle events are its own). */
const forwarded = ["newToken", "retry", "repair", "fallback", "cacheHit", "warning"] as const;

type Emit = <E extends keyof ChatModelEvents>(event: E, payload: Parameters<ChatModelEvents[E]>[0]) => void;

const stopNothing = () => {};

/**
 * Passes on the events of one member call — the call made with `memberInput`, a copy of the
 * caller's input that no other call shares — as events of the router's call (the caller's input and
 * callId). Only the events the router's emitter (`router`, none until someone asked for it) has
 * listeners for when the member's call starts are listened to on the member: a member nobody
 * listens to through the router emits nothing (a stream builds no `newToken` payload per chunk).
 * Returns what stops it.
 */
export function forwardMemberEvents(
  member: ChatModelLike,
  memberInput: ChatModelInput,
  call: { input: ChatModelInput; callId: number },
  router: Pick<EventSink, "listens"> | undefined,
  emit: Emit,
): () => void {
  if (router === undefined) return stopNothing;
  const events = forwarded.filter((event) => router.listens(event));
  if (events.length === 0) return stopNothing;
  const emitter = member.emitter;
  const listeners = events.map((event) => {
    const listener = (payload: { input: ChatModelInput }) => {
      if (payload.input !== memberInput) return;
      (emit as (event: string, payload: unknown) => void)(event, { ...payload, ...call });
    };
    emitter.on(event, listener);
    return () => emitter.off(event, listener);
  });
  return () => {
    for (const off of listeners) off();
  };
}
