import { preflightGuarded } from "../budgets/preflight-guard.js";
import { callTimeout } from "../budgets/call-timeout.js";
import { stallGuarded } from "../budgets/stall-guard.js";
import type { ModelSettings } from "../model-settings.js";
import {
  dropUnsupportedParameters,
  droppedParameterMessage,
  prepareCall,
  type CallDependencies,
} from "../call/index.js";
import { hasToolResultMedia, type Message } from "../messages.js";
import { firstAnnouncement } from "../capabilities/learned-capabilities.js";
import type { ChatModelEvents } from "../events.js";
import type { ProviderInput, RunContext } from "../input.js";
import type { ProviderOutput, ToolChoiceRung } from "../output.js";
import type { ChatModelChunk } from "../stream/chat-model-chunk.js";
import { rateLimitMiddleware } from "../rate-limit/rate-limit-middleware.js";
import { checkMiddleware, type ChatModelMiddleware } from "../middleware/chat-model-middleware.js";
import { composeMiddleware } from "../middleware/compose-middleware.js";
import type { ProviderRequests } from "../middleware/provider-requests.js";
import { noListeners, type ChatModelEmitter } from "../emitter/chat-model-emitter.js";
import { checkRepairBudget } from "./chat-model-settings.js";

/** What the bridge reads of its model that the model keeps to itself (its emitter, its adapter). */
export interface ModelInternals {
  /** The model's emitter, once one was made (none: nobody listens). */
  madeEmitter(): ChatModelEmitter | undefined;
  emit<E extends keyof ChatModelEvents>(event: E, payload: Parameters<ChatModelEvents[E]>[0]): void;
  /** Why the model's profile sent a call down a fallback rung, with the fix. */
  fallbackNote(rung: ToolChoiceRung): string | undefined;
  request(input: ProviderInput, context: RunContext): Promise<ProviderOutput>;
  requestStream(input: ProviderInput, context: RunContext): AsyncIterable<ChatModelChunk>;
  endpoint: string;
  capabilityScope: string;
}

/**
 * What a model's calls read it through (core/call's `CallDependencies`): its settings, read at each use, its
 * events, its repair budget, the prepare step with the warnings and fallback events that go with it,
 * and the requests to its adapter, held to its rate limit when it has one.
 */
export function callBridge(model: ModelSettings, internals: ModelInternals): CallDependencies {
  const scope = { providerId: model.providerId, scope: internals.capabilityScope, modelId: model.modelId };
  const modelClass = model.constructor.name;
  return {
    settings: model,
    scope,
    get emitter() {
      return internals.madeEmitter() ?? noListeners;
    },
    retry: model.retry,
    // Read at each repair: a maxRepairAttempts assigned after the model was made holds for the calls after it.
    get maxRepairAttempts() {
      return checkRepairBudget(model.maxRepairAttempts, " (assigned to the model after it was made)");
    },
    prepare: (input, callId) => {
      const call = prepareCall(input, callId, model, modelClass);
      for (const name of dropUnsupportedParameters(call.parameters, model)) {
        // One warning per process, provider, endpoint, model and parameter (a refusal learned announced it already),
        // spent only on a model that listens: a later listener still hears of a parameter dropped unheard.
        if (!internals.madeEmitter()?.listening.warning || !firstAnnouncement(scope, `parameter:${name}`)) continue;
        const message = droppedParameterMessage(model, name);
        internals.emit("warning", { input, callId, code: "unsupported-parameter", message });
      }
      // Read only by a listener on a model whose provider takes text alone in a tool result.
      if (!model.toolResultMedia && internals.madeEmitter()?.listening.warning && hasMediaResult(input.messages)) {
        const message = `${model.providerId} takes only text in a tool result: the images and files of this call's tool results were sent in a user message after each tool message.`;
        internals.emit("warning", { input, callId, code: "tool-result-media", message });
      }
      if (call.plan.rung !== "native" && call.plan.reason) {
        const note = internals.fallbackNote(call.plan.rung);
        const reason = note ? `${call.plan.reason}. ${note}` : call.plan.reason;
        internals.emit("fallback", { input, callId, rung: call.plan.rung, reason });
      }
      return call;
    },
    // Checked against the context window before the rate limit holds them.
    ...preflightGuarded(requests(model, internals), model, ({ call }, message) => {
      if (call)
        internals.emit("warning", { input: call.input, callId: call.callId, code: "max-tokens-clamped", message });
    }),
  };
}

/**
 * The requests to the adapter with the model's middleware around them (first listed outermost),
 * then its rate limit, when it has one, next to the provider: each request (every attempt, retries
 * included) runs through them. A middleware array assigned to the model later is composed anew.
 */
function requests(
  model: ModelSettings,
  internals: ModelInternals,
): Pick<CallDependencies, "request" | "requestStream"> {
  // Held to the call's firstChunkMs / chunkMs once sent (time held by the rate limit is not silence).
  const guarded = stallGuarded(internals, model, (context) => callTimeout(context.call?.input.timeout, model.timeout));
  const provider: ProviderRequests = { create: guarded.request, stream: guarded.requestStream };
  const limited = { providerId: model.providerId, modelId: model.modelId, endpoint: internals.endpoint };
  const builtIn =
    model.rateLimit === undefined
      ? []
      : [
          rateLimitMiddleware(model.rateLimit, limited, (message, { callInput, callId }) =>
            internals.emit("warning", { input: callInput, callId, code: "rate-limit-store", message }),
          ),
        ];
  let composedFor: readonly ChatModelMiddleware[] | undefined;
  let composed = provider;
  const current = (): ProviderRequests => {
    if (model.middleware !== composedFor) {
      composedFor = model.middleware;
      composed = composeMiddleware(provider, [...checkMiddleware(composedFor), ...builtIn], model);
    }
    return composed;
  };
  return {
    request: (input, context) => current().create(input, context),
    requestStream: (input, context) => current().stream(input, context),
  };
}

function hasMediaResult(messages: readonly Message[]): boolean {
  return messages.some((message) => message.role === "tool" && hasToolResultMedia(message));
}
