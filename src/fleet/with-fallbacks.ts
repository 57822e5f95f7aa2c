import type { ChatModelLike } from "../core/model/chat-model-like.js";
import { RouterChatModel } from "./router-chat-model.js";
import type { WithFallbacksOptions } from "./with-fallbacks-options.js";

export type { WithFallbacksOptions } from "./with-fallbacks-options.js";

/**
 * One model made of several, tried in order: a router with the `"ordered"` strategy. Each call goes
 * to the first model not cooling down, and moves on to the next only for errors another provider
 * could answer (rate limit, server, network, timeout, a stall — after that model's own retries),
 * never for those it would repeat (invalid request, authentication, content policy, a tool-call
 * error). Each model keeps its own capabilities and tool_choice rung; `output.meta.model` names the
 * one that answered, and a `fallback` event (with `failed`, `next` and `error`) says why a call
 * moved on. A stream moves on only before its first chunk: after it, the error carries the partial
 * output as any stream's does. When every model fails, a `FallbackError` lists each one's error.
 */
export function withFallbacks(models: readonly ChatModelLike[], options: WithFallbacksOptions = {}): RouterChatModel {
  const { cooldownMs } = options ?? {};
  return new RouterChatModel(
    models,
    { strategy: "ordered", ...(cooldownMs === undefined ? {} : { cooldownMs }) },
    "withFallbacks",
  );
}
