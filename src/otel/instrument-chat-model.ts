import { SpanKind, SpanStatusCode, trace, type Span, type Tracer } from "@opentelemetry/api";
import type { ChatModel } from "../core/chat-model.js";
import type { ChatModelEvents } from "../core/events.js";
import { requestAttributes, responseAttributes } from "./gen-ai-attributes.js";

export interface InstrumentOptions {
  /** @default trace.getTracer("keelson") from the global provider */
  tracer?: Tracer;
  /** Record the messages and the reply on the span (they may hold personal data). @default false */
  recordContent?: boolean;
}

/**
 * Turns a model's events into OpenTelemetry spans following the GenAI semantic conventions: one
 * `chat <model>` client span per call, with tokens, finish reason, retries and fallbacks as span
 * events, and the tool_choice ladder rung. Returns a function that stops the instrumentation: no
 * span for a call after it, while the calls in flight still end theirs.
 */
export function instrumentChatModel(model: ChatModel, options: InstrumentOptions = {}): () => void {
  const tracer = options.tracer ?? trace.getTracer("keelson");
  const spans = new WeakMap<object, Span[]>();
  const current = (input: object) => spans.get(input)?.at(-1);
  /** Spans started and not yet ended, and whether the returned stop() was called. */
  let open = 0;
  let stopped = false;

  const listeners: { [E in keyof ChatModelEvents]?: ChatModelEvents[E] } = {
    start: ({ input }) => {
      const span = tracer.startSpan(`chat ${model.modelId}`, {
        kind: SpanKind.CLIENT,
        attributes: requestAttributes(model.providerId, model.modelId, input, model.parameters),
      });
      if (options.recordContent) span.setAttribute("gen_ai.input.messages", JSON.stringify(input.messages));
      spans.set(input, [...(spans.get(input) ?? []), span]);
      open++;
    },
    retry: ({ input, attempt, error, delayMs }) => {
      current(input)?.addEvent("keelson.retry", { attempt, "error.type": error.name, "keelson.delay_ms": delayMs });
    },
    repair: ({ input, attempt, error }) => {
      current(input)?.addEvent("keelson.repair", { attempt, "error.type": error.name, "keelson.problem": error.message });
    },
    fallback: ({ input, rung, reason }) => {
      current(input)?.addEvent("keelson.fallback", { "keelson.tool_choice.rung": rung, "keelson.reason": reason });
    },
    success: ({ input, output }) => {
      const span = current(input);
      span?.setAttributes(responseAttributes(output));
      if (options.recordContent) span?.setAttribute("gen_ai.output.messages", JSON.stringify([output.message]));
    },
    error: ({ input, error }) => {
      const span = current(input);
      span?.recordException(error);
      span?.setAttribute("error.type", error.name);
      span?.setStatus({ code: SpanStatusCode.ERROR, message: error.message });
    },
    finish: ({ input }) => {
      const stack = spans.get(input);
      const span = stack?.pop();
      if (stack?.length === 0) spans.delete(input);
      if (!span) return;
      span.end();
      if (--open === 0 && stopped) detach();
    },
  };
  const detach = () => {
    for (const [event, listener] of Object.entries(listeners)) model.emitter.off(event as keyof ChatModelEvents, listener as never);
  };
  for (const [event, listener] of Object.entries(listeners)) model.emitter.on(event as keyof ChatModelEvents, listener as never);
  return () => {
    if (stopped) return;
    stopped = true;
    // No new spans; the calls in flight still get theirs recorded and ended, then the rest goes.
    model.emitter.off("start", listeners.start);
    if (open === 0) detach();
  };
}
