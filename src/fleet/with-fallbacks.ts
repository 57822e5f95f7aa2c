import type { ChatModel } from "../core/chat-model.js";
import { FallbackChatModel } from "./fallback-chat-model.js";

/** Options of `withFallbacks`. */
export interface WithFallbacksOptions {
  /**
   * How long a model that failed (with an error another model could answer) is skipped by the
   * calls after, in milliseconds; a longer `Retry-After` from its provider wins. A model still
   * cooling down is tried last rather than not at all, when every other one failed too.
   * @default 30000
   */
  cooldownMs?: number;
}

/**
 * One model made of several: each call goes to the first model not cooling down, and moves on to
 * the next only for errors another provider could answer (rate limit, server, network, timeout —
 * after that model's own retries), never for those it would repeat (invalid request,
 * authentication, content policy, a tool-call error). Each model keeps its own capabilities and
 * tool_choice rung; `output.meta.model` names the one that answered, and a `fallback` event (with
 * `failed`, `next` and `error`) says why a call moved on. A stream moves on only before its first
 * chunk: after it, the error carries the partial output as any stream's does.
 */
export function withFallbacks(models: readonly ChatModel[], options: WithFallbacksOptions = {}): FallbackChatModel {
  return new FallbackChatModel(models, options);
}
