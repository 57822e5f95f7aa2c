import type { ToolChoiceRung } from "../output.js";
import type { CallSignal } from "../../internal/abort.js";
import type { ChatModelCache } from "../cache/chat-model-cache.js";
import { cacheKey } from "../cache/cache-key.js";
import type { ProviderError } from "../errors/provider-error.js";
import type { EventSink } from "../chat-model-emitter.js";
import type { ChatModelEvents } from "../events.js";
import type { ChatModelInput, ProviderInput, RunContext } from "../input.js";
import type { ChatModelOutput, ProviderOutput } from "../output.js";
import type { ChatModelChunk } from "../stream/chat-model-chunk.js";
import type { CallEnd } from "../stream/chat-model-stream.js";
import type { ToolChoiceMode } from "../tool-choice/tool-choice-mode.js";
import { learnedToolChoiceMessage, refusedToolChoice } from "../tool-choice/refused-tool-choice.js";
import { dropUnsupportedParameters, droppedParameterMessage } from "../parameters/drop-unsupported-parameters.js";
import type { ParameterSupport } from "../parameters/drop-unsupported-parameters.js";
import type { ParameterName } from "../parameters/parameter-name.js";
import { CacheLayer, type CacheSettings } from "./cache-layer.js";
import { CallShapes } from "./call-shapes.js";
import type { CallHost } from "./call-host.js";
import type { CallSettings, PreparedCall } from "./prepare-call.js";
import { prepareCall } from "./prepare-call.js";
import { runCreate } from "./run-create.js";
import { runStream } from "./run-stream.js";
import type { StartedChunks } from "./stream-run.js";

/** The model as its calls read it: its settings (read afresh each call), emitter, retry and cache. */
export interface CalledModel
  extends Omit<CallSettings, "retry">, Pick<CallHost, "retry" | "maxRepairAttempts">, ParameterSupport {
  readonly modelId: string;
  toolChoiceSupport: Set<ToolChoiceMode>;
  cache: ChatModelCache;
  cacheTtlMs: number | undefined;
}

/** What only the model itself can do: reach its adapter, its endpoint and its guarded events. */
export interface ModelHooks {
  request(input: ProviderInput, context: RunContext): Promise<ProviderOutput>;
  requestStream(input: ProviderInput, context: RunContext): AsyncIterable<ChatModelChunk>;
  endpoint(): string;
  /** The model's events when its calls are made: its emitter, or no listeners while nobody has made it (then `useEmitter`). */
  readonly emitter: EventSink;
  emit<E extends keyof ChatModelEvents>(event: E, payload: Parameters<ChatModelEvents[E]>[0]): void;
  /** The adapter's word on why a fallback rung was taken (its cause and fix), added to the event's reason. */
  fallbackNote?(rung: ToolChoiceRung): string | undefined;
}

/**
 * One model's calls, made on its first call (this module loads then, not on import): a call
 * prepared from the model's settings, run through the cache when there is one, and the tool_choice
 * values a provider refuses learned for the calls after it.
 */
export class ModelCalls {
  readonly #model: CalledModel;
  readonly #hooks: ModelHooks;
  readonly #host: CallHost & { emitter: EventSink };
  /** The model's class name: constant for its calls, and a native accessor to read, so read once. */
  readonly #modelClass: string;
  readonly #shapes = new CallShapes();
  /** The parameters this model already warned it drops: one warning per model and parameter. */
  readonly #warnedParameters = new Set<string>();
  #cacheLayer: CacheLayer | undefined;

  constructor(model: CalledModel, hooks: ModelHooks) {
    this.#model = model;
    this.#modelClass = model.constructor.name;
    this.#hooks = hooks;
    this.#host = {
      emitter: hooks.emitter,
      retry: model.retry,
      // Read at each repair: a model's maxRepairAttempts assigned after its first call holds for the calls after it.
      get maxRepairAttempts() {
        const budget: unknown = model.maxRepairAttempts;
        // Checked as the constructor checks it: NaN or undefined would re-ask without bound.
        if (!(Number.isInteger(budget) && (budget as number) >= 0)) {
          throw new TypeError(
            `maxRepairAttempts must be a non-negative integer, got ${String(budget)} (assigned to the model after it was made).`,
          );
        }
        return budget as number;
      },
      request: hooks.request,
      requestStream: hooks.requestStream,
      learn: (error, call) => this.#learn(error, call),
    };
  }

  /** The model's emitter, made after its calls were: calls in flight and to come read it from now on. */
  useEmitter(emitter: EventSink): void {
    this.#host.emitter = emitter;
  }

  prepare(input: ChatModelInput, callId: number): PreparedCall {
    const call = prepareCall(input, callId, this.#model, this.#shapes, this.#modelClass);
    for (const name of dropUnsupportedParameters(call.parameters, this.#model)) this.#warnDropped(call, name);
    if (call.plan.rung !== "native" && call.plan.reason) {
      const note = this.#hooks.fallbackNote?.(call.plan.rung);
      const reason = note ? `${call.plan.reason}. ${note}` : call.plan.reason;
      this.#hooks.emit("fallback", { input, callId, rung: call.plan.rung, reason });
    }
    return call;
  }

  create(call: PreparedCall, signal: AbortSignal): Promise<ChatModelOutput> {
    const key = this.#cacheKey(call);
    if (key === undefined) return runCreate(this.#host, call, signal);
    return this.#cache().create(key, call, signal, this.#cacheSettings(), () => runCreate(this.#host, call, signal));
  }

  /**
   * Uncached and given a CallEnd, the call's own iterator settles the call; otherwise the stream's
   * wrapping does (the cache's generator reads the call to the end first).
   */
  stream(call: PreparedCall, linked: CallSignal, end?: CallEnd): StartedChunks {
    const { signal } = linked;
    const key = this.#cacheKey(call);
    if (key === undefined)
      return { chunks: runStream(this.#host, call, linked, end), settlesItself: end !== undefined };
    const host = this.#host;
    let stoppedByListener = false;
    const stop = () => {
      stoppedByListener = true;
      linked.abort();
    };
    const onToken = (chunk: ChatModelChunk) => {
      const emitter = host.emitter;
      if (emitter.listensForTokens)
        emitter.emit("newToken", { input: call.input, callId: call.callId, chunk, abort: stop });
    };
    const run = () => runStream(this.#host, call, linked);
    const chunks = this.#cache().stream(
      key,
      call,
      signal,
      this.#cacheSettings(),
      onToken,
      run,
      () => stoppedByListener,
    );
    return { chunks, settlesItself: false };
  }

  #warnDropped(call: PreparedCall, name: ParameterName): void {
    if (this.#warnedParameters.has(name)) return;
    this.#warnedParameters.add(name);
    const message = droppedParameterMessage(this.#model, name);
    this.#hooks.emit("warning", { input: call.input, callId: call.callId, code: "unsupported-parameter", message });
  }

  #learn(error: ProviderError, call: PreparedCall): PreparedCall | undefined {
    const model = this.#model;
    const refused = refusedToolChoice(error, call);
    if (!refused) return undefined;
    // A call in flight when another one learned the same refusal finds the value gone: it only moves down.
    if (model.toolChoiceSupport.has(refused)) {
      model.toolChoiceSupport = new Set([...model.toolChoiceSupport].filter((value) => value !== refused));
      const message = learnedToolChoiceMessage(
        `${model.providerId} ${model.modelId}`,
        refused,
        error,
        model.toolChoiceSupport,
      );
      this.#hooks.emit("warning", { input: call.input, callId: call.callId, code: "learned-tool-choice", message });
    }
    return this.prepare(call.input, call.callId);
  }

  #cacheKey(call: PreparedCall): string | undefined {
    const model = this.#model;
    if (!call.useCache || (model.cache as { isNull?: boolean }).isNull === true) return undefined;
    return cacheKey({ providerId: model.providerId, modelId: model.modelId, endpoint: this.#hooks.endpoint() }, call);
  }

  #cache(): CacheLayer {
    return (this.#cacheLayer ??= new CacheLayer());
  }

  #cacheSettings(): CacheSettings {
    const model = this.#model;
    const host = this.#host;
    return {
      cache: model.cache,
      ttlMs: model.cacheTtlMs,
      get emitter() {
        return host.emitter;
      },
    };
  }
}
