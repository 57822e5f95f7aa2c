import type { Span, Tracer } from "@opentelemetry/api";
import type { ChatModelLike } from "../core/model/chat-model-like.js";
import type { ChatModelEvents } from "../core/events.js";
import { requestAttributes, responseAttributes } from "./gen-ai-attributes.js";
import { genAIMessages, genAIOutputMessage } from "./gen-ai-messages.js";
import { lazyRequire } from "../core/loading/lazy-require.js";

// Loaded when keelson/otel is: without the package, importing keelson/otel fails with the
// MissingDependencyError that names the install, as a missing provider SDK does.
const { SpanKind, SpanStatusCode, trace } = lazyRequire<typeof import("@opentelemetry/api")>(
  "@opentelemetry/api",
  "OpenTelemetry spans (keelson/otel)",
)();

export interface InstrumentOptions {
  /** @default trace.getTracer("keelson") from the global provider */
  tracer?: Tracer | undefined;
  /** Record the messages and the reply on the span (they may hold personal data). @default false */
  recordContent?: boolean | undefined;
}

/**
 * Turns a model's events into OpenTelemetry spans following the GenAI semantic conventions: one
 * `chat <model>` client span per call, with tokens, finish reason, retries and fallbacks as span
 * events, and the tool_choice ladder rung. Returns a function that stops the instrumentation: no
 * span for a call after it, while the calls in flight still end theirs.
 */
export function instrumentChatModel(model: ChatModelLike, options: InstrumentOptions = {}): () => void {
  const tracer = options.tracer ?? trace.getTracer("keelson");
  /** The spans of the calls in flight, by call; whether the returned stop() was called. */
  const spans = new Map<number, Span>();
  let stopped = false;

  const listeners: { [E in keyof ChatModelEvents]?: ChatModelEvents[E] } = {
    start: ({ input, callId }) => {
      const span = tracer.startSpan(`chat ${model.modelId}`, {
        kind: SpanKind.CLIENT,
        attributes: requestAttributes(model.providerId, model.modelId, input, model.parameters),
      });
      // Kept before anything else can throw: the call's finish ends it, whatever its input was.
      spans.set(callId, span);
      if (options.recordContent) recordJSON(span, "gen_ai.input.messages", () => genAIMessages(input.messages));
    },
    retry: ({ callId, attempt, error, delayMs }) => {
      spans.get(callId)?.addEvent("keelson.retry", { attempt, "error.type": error.name, "keelson.delay_ms": delayMs });
    },
    repair: ({ callId, attempt, error }) => {
      spans
        .get(callId)
        ?.addEvent("keelson.repair", { attempt, "error.type": error.name, "keelson.problem": error.message });
    },
    fallback: ({ callId, rung, reason }) => {
      spans.get(callId)?.addEvent("keelson.fallback", { "keelson.tool_choice.rung": rung, "keelson.reason": reason });
    },
    success: ({ callId, output }) => {
      const span = spans.get(callId);
      span?.setAttributes(responseAttributes(output));
      if (options.recordContent && span)
        recordJSON(span, "gen_ai.output.messages", () => [genAIOutputMessage(output.message, output.finishReason)]);
    },
    error: ({ callId, error }) => {
      const span = spans.get(callId);
      span?.recordException(error);
      span?.setAttribute("error.type", error.name);
      span?.setStatus({ code: SpanStatusCode.ERROR, message: error.message });
    },
    finish: ({ callId }) => {
      const span = spans.get(callId);
      if (!span) return;
      spans.delete(callId);
      span.end();
      if (spans.size === 0 && stopped) detach();
    },
  };
  const detach = () => {
    for (const [event, listener] of Object.entries(listeners))
      model.emitter.off(event as keyof ChatModelEvents, listener as never);
  };
  for (const [event, listener] of Object.entries(listeners))
    model.emitter.on(event as keyof ChatModelEvents, listener as never);
  return () => {
    if (stopped) return;
    stopped = true;
    // No new spans; the calls in flight still get theirs recorded and ended, then the rest goes.
    model.emitter.off("start", listeners.start);
    if (spans.size === 0) detach();
  };
}

/**
 * Records what `content` makes as JSON; content that cannot be (an invalid input, a BigInt, a cycle)
 * is left out rather than losing the span.
 */
function recordJSON(span: Span, key: string, content: () => unknown): void {
  let json: string | undefined;
  try {
    json = JSON.stringify(content());
  } catch {
    return;
  }
  if (json !== undefined) span.setAttribute(key, json);
}
