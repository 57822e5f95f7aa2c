import type { ChatModel } from "../core/model/chat-model.js";
import { FallbackChatModel } from "./fallback-chat-model.js";
import type { WithFallbacksOptions } from "./with-fallbacks-options.js";

export type { WithFallbacksOptions } from "./with-fallbacks-options.js";

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
