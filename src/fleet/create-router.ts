import type { ChatModelLike } from "../core/model/chat-model-like.js";
import { RouterChatModel } from "./router-chat-model.js";
import type { RouterOptions } from "./router-options.js";

/**
 * One model over a group of deployments — one model behind several providers, regions or keys.
 * Each call goes to the member `strategy` picks (default `"ordered"`: the first one not resting)
 * and runs through that member's own pipeline (its capabilities, tool_choice rung, learned
 * refusals, retries and cache). On an error another member could answer (rate limit, server,
 * network, timeout, a stall) it moves on to the next, and the member that failed rests
 * `cooldownMs` (a 429's `Retry-After`, when longer). With a Redis client as `store`, the members'
 * health — calls in flight, latency, failures, rest — is shared by every process of a fleet.
 * `output.meta.model` names the member that answered; when every member fails, a `FallbackError`
 * lists each one's error. Reasoning a member's provider signed or encrypted is left out of what a
 * member of another provider is sent (one `warning`), so a conversation survives the move.
 *
 * @example
 * const model = createRouter([openai, azure, bedrock], { strategy: "least-busy", store: redis });
 * const output = await model.create({ messages });
 * output.meta.model; // { providerId: "azure-openai", modelId: "gpt-4o-mini" }
 */
export function createRouter(models: readonly ChatModelLike[], options: RouterOptions = {}): RouterChatModel {
  return new RouterChatModel(models, options);
}
