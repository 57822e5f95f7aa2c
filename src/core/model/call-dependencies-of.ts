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
import type { RunContext } from "../input.js";
import type { ToolChoiceRung } from "../output.js";
import { rateLimitMiddleware } from "../rate-limit/rate-limit-middleware.js";
import { checkMiddleware, type ChatModelMiddleware } from "../middleware/chat-model-middleware.js";
import { composeMiddleware } from "../middleware/compose-middleware.js";
import type { ProviderRequests } from "../middleware/provider-requests.js";
import { sinkOf, type EmitterSlot } from "../emitter/emitter-slot.js";
import { checkRepairBudget } from "./chat-model-settings.js";

/**
 * What a model hands its calls, once (core/call's `CallDependencies`): its settings, read at each use;
 * its emitter slot; the prepare step with the warnings and fallback events that go with it; and the
 * adapter's requests (`provider`, its `_create`/`_createStream` bound to it) with the model's middleware
 * and rate limit composed around them. A call goes down through these to the adapter and never comes
 * back into the model.
 */
export function callDependenciesOf(
  settings: ModelSettings,
  provider: ProviderRequests,
  events: EmitterSlot,
  where: { readonly endpoint: string; readonly capabilityScope: string },
  fallbackNote: (rung: ToolChoiceRung) => string | undefined,
): CallDependencies {
  const scope = { providerId: settings.providerId, scope: where.capabilityScope, modelId: settings.modelId };
  const modelClass = settings.constructor.name;
  const builtIn =
    settings.rateLimit === undefined
      ? []
      : [
          rateLimitMiddleware(
            settings.rateLimit,
            { providerId: settings.providerId, modelId: settings.modelId, endpoint: where.endpoint },
            (message, { callInput, callId }) => {
              const sink = sinkOf(events);
              if (sink.listens("warning"))
                sink.emit("warning", { input: callInput, callId, code: "rate-limit-store", message });
            },
          ),
        ];
  // Held to the call's firstChunkMs / chunkMs once sent (time held by the rate limit is not silence).
  const guarded = stallGuarded({ request: provider.create, requestStream: provider.stream }, settings, (context) =>
    callTimeout(context.call?.input.timeout, settings.timeout),
  );
  const stallChecked: ProviderRequests = { create: guarded.request, stream: guarded.requestStream };
  const warnClamped = (context: RunContext, message: string) => {
    const sink = sinkOf(events);
    const { call } = context;
    if (call && sink.listens("warning"))
      sink.emit("warning", { input: call.input, callId: call.callId, code: "max-tokens-clamped", message });
  };
  // A middleware array assigned to the model later is composed anew on the next request.
  let composedFor: readonly ChatModelMiddleware[] | undefined | null = null;
  let composed = provider;
  return {
    settings,
    scope,
    endpoint: where.endpoint,
    get emitter() {
      return sinkOf(events);
    },
    retry: settings.retry,
    // Read at each repair: a maxRepairAttempts assigned after the model was made holds for the calls after it.
    get maxRepairAttempts() {
      return checkRepairBudget(settings.maxRepairAttempts, " (assigned to the model after it was made)");
    },
    get provider() {
      if (settings.middleware !== composedFor) {
        composedFor = settings.middleware;
        const inner = composeMiddleware(stallChecked, [...checkMiddleware(composedFor), ...builtIn], settings);
        // Checked against the context window before the middleware and the rate limit hold them.
        const checked = preflightGuarded({ request: inner.create, requestStream: inner.stream }, settings, warnClamped);
        composed = { create: checked.request, stream: checked.requestStream };
      }
      return composed;
    },
    prepare: (input, callId) => {
      const call = prepareCall(input, callId, settings, modelClass);
      const sink = sinkOf(events);
      for (const name of dropUnsupportedParameters(call.parameters, settings)) {
        // One warning per process, provider, endpoint, model and parameter (a refusal learned announced it already),
        // spent only on a model that listens: a later listener still hears of a parameter dropped unheard.
        if (!sink.listens("warning") || !firstAnnouncement(scope, `parameter:${name}`)) continue;
        const message = droppedParameterMessage(settings, name);
        sink.emit("warning", { input, callId, code: "unsupported-parameter", message });
      }
      // Read only by a listener on a model whose provider takes text alone in a tool result.
      if (!settings.toolResultMedia && sink.listens("warning") && hasMediaResult(input.messages)) {
        const message = `${settings.providerId} takes only text in a tool result: the images and files of this call's tool results were sent in a user message after each tool message.`;
        sink.emit("warning", { input, callId, code: "tool-result-media", message });
      }
      if (call.plan.rung !== "native" && call.plan.reason && sink.listens("fallback")) {
        const note = fallbackNote(call.plan.rung);
        const reason = note ? `${call.plan.reason}. ${note}` : call.plan.reason;
        sink.emit("fallback", { input, callId, rung: call.plan.rung, reason });
      }
      return call;
    },
  };
}

function hasMediaResult(messages: readonly Message[]): boolean {
  return messages.some((message) => message.role === "tool" && hasToolResultMedia(message));
}
