import { preflightGuarded } from "../budgets/preflight-guard.js";
import type { ModelProfile } from "../profiles/model-profile.js";
import { callTimeout, type CallTimeout } from "../budgets/call-timeout.js";
import { stallGuarded } from "../budgets/stall-guard.js";
import { prepareCall, type CallModel, type CallSettings } from "../call/index.js";
import { firstAnnouncement } from "../capabilities/learned-capabilities.js";
import type { ChatModelEvents } from "../events.js";
import type { ProviderInput, RunContext } from "../input.js";
import type { ProviderOutput, ToolChoiceRung } from "../output.js";
import {
  dropUnsupportedParameters,
  droppedParameterMessage,
  type ParameterSupport,
} from "../parameters/drop-unsupported-parameters.js";
import type { ResolvedRetryOptions } from "../retry/retry-options.js";
import type { ChatModelChunk } from "../stream/chat-model-chunk.js";
import type { RateLimitOptions } from "../../fleet/rate-limit-options.js";
import { rateLimitedRequests, type ModelRequests } from "../../fleet/rate-limited-requests.js";
import { noListeners, type ChatModelEmitter } from "./chat-model-emitter.js";
import { checkRepairBudget } from "./chat-model-settings.js";

/** The model as its calls read it: its public settings (a ChatModel). */
export interface BridgedModel extends CallSettings, ParameterSupport {
  readonly providerId: string;
  readonly modelId: string;
  readonly retry: ResolvedRetryOptions;
  readonly maxRepairAttempts: number;
  readonly rateLimit: RateLimitOptions | undefined;
  readonly timeout: CallTimeout | undefined;
  readonly profile: ModelProfile;
}

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
 * What a model's calls read it through (core/call's `CallModel`): its settings, read at each use, its
 * events, its repair budget, the prepare step with the warnings and fallback events that go with it,
 * and the requests to its adapter, held to its rate limit when it has one.
 */
export function callBridge(model: BridgedModel, internals: ModelInternals): CallModel {
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
 * The requests to the adapter: each one held to the model's rate limit, when it has one, before
 * it is sent (every attempt, retries included), and settled once it is answered.
 */
function requests(model: BridgedModel, internals: ModelInternals): ModelRequests {
  const sent: ModelRequests = {
    request: (input, context) => internals.request(input, context),
    requestStream: (input, context) => internals.requestStream(input, context),
  };
  // Held to the call's firstChunkMs / chunkMs once sent (time waiting on the rate limit is not silence).
  const direct = stallGuarded(sent, model, (context) => callTimeout(context.call?.input.timeout, model.timeout));
  if (model.rateLimit === undefined) return direct;
  const limited = { providerId: model.providerId, modelId: model.modelId, endpoint: internals.endpoint };
  return rateLimitedRequests(model.rateLimit, limited, direct, (message, { call }) => {
    if (call) internals.emit("warning", { input: call.input, callId: call.callId, code: "rate-limit-store", message });
  });
}
