import { callError, callSignal, throwIfAborted } from "../internal/abort.js";
import type { ChatModelCache } from "./cache/chat-model-cache.js";
import { NullCache } from "./cache/null-cache.js";
import { ChatModelEmitter, noListeners } from "./chat-model-emitter.js";
import type { ChatModelOptions, ChatModelProfile } from "./chat-model-options.js";
import type { ChatModelEvents } from "./events.js";
import type {
  ChatModelInput,
  ChatModelParameters,
  InferSchemaOutput,
  ProviderInput,
  RunContext,
  StructureInput,
} from "./input.js";
import type { ToolCall } from "./messages.js";
import type { ChatModelOutput, ProviderOutput, ToolChoiceRung } from "./output.js";
import type { AnyTool, ToolCallOf } from "./tool.js";
import type { ParameterName } from "./parameters/parameter-name.js";
import { toParameterSet } from "./parameters/parameter-name.js";
import type { ModelCalls } from "./pipeline/model-calls.js";
import type { ResolvedRetryOptions } from "./retry/retry-options.js";
import { resolveRetryOptions } from "./retry/retry-options.js";
import type { SchemaInput } from "./schema/schema-input.js";
import type { ChatModelChunk } from "./stream/chat-model-chunk.js";
import { ChatModelStream, type StreamFinal, type StreamRun } from "./stream/chat-model-stream.js";
import { streamRun, type EmitCallEvent } from "./pipeline/stream-run.js";
import { deferredChunks } from "./stream/deferred-chunks.js";
import type { ToolChoiceMode } from "./tool-choice/tool-choice-mode.js";
import { toToolChoiceSupport } from "./tool-choice/tool-choice-mode.js";
import { LazyModule } from "../internal/lazy-import.js";

/**
 * The call pipeline (ModelCalls and all it runs) loads on the first call a process makes, then is
 * at hand with no await: about half of keelson's code, which importing keelson and building a model
 * never compile.
 */
const callPipeline = new LazyModule<typeof import("./pipeline/model-calls.js")>(
  () => import("./pipeline/model-calls.js"),
);

/** The calls made so far in this process, by every model: the last call's `callId`. */
let callCount = 0;

/**
 * One chat-model interface for every provider. The base class owns the pipeline — input
 * normalisation, the tool_choice ladder, cache, retries, repair, validation and events — once;
 * an adapter declares its profile and implements `_create` and `_createStream`.
 */
export abstract class ChatModel {
  /** "openai", "azure-openai", "ollama", "bedrock", "scripted", … */
  abstract readonly providerId: string;
  readonly modelId: string;
  /** The tool_choice values this provider honours; the ladder falls back for the rest. */
  toolChoiceSupport: Set<ToolChoiceMode>;
  /** The emitter, once `emitter` was first read: until then no one can be listening. */
  private madeEmitter: ChatModelEmitter | undefined;
  toolCallFallbackViaResponseFormat: boolean;
  supportsToolCalling: boolean;
  supportsStructuredOutput: boolean;
  supportsTopLevelUnion: boolean;
  strictResponseFormat: boolean;
  allowParallelToolCalls: boolean;
  ignoreParallelToolCalls: boolean;
  fixInvalidToolCalls: boolean;
  recoverTextToolCallsOnAuto: boolean;
  retryOnEmptyResponse: boolean;
  maxRepairAttempts: number;
  cache: ChatModelCache;
  cacheTtlMs: number | undefined;
  parameters: ChatModelParameters | undefined;
  /** The parameters this provider and model have no field for: dropped with a warning, or refused (`strictParameters`). */
  unsupportedParameters: Set<ParameterName>;
  strictParameters: boolean;
  readonly retry: ResolvedRetryOptions;
  /**
   * For adapters: set true when this adapter never hands a call's signal to `AbortSignal.any`.
   * A call nothing can end early (no signal, no timeout, not a stream) then gets one shared signal
   * that never aborts and keeps no listeners, instead of an AbortController of its own (the
   * largest allocation of a plain call). Off by default: on Node 20, `AbortSignal.any` keeps a
   * reference on its source signal for every use, which a shared signal would collect forever.
   */
  protected readonly plainCallsShareInertSignal: boolean = false;
  private callsCache: ModelCalls | undefined;

  constructor(modelId: string, options: ChatModelOptions = {}, profile: ChatModelProfile) {
    if (typeof modelId !== "string" || modelId.trim() === "") {
      throw new TypeError(`A model id is required (a non-empty string), got ${JSON.stringify(modelId)}.`);
    }
    if (
      options.maxRepairAttempts !== undefined &&
      !(Number.isInteger(options.maxRepairAttempts) && options.maxRepairAttempts >= 0)
    ) {
      throw new TypeError(`maxRepairAttempts must be a non-negative integer, got ${options.maxRepairAttempts}.`);
    }
    this.modelId = modelId;
    this.madeEmitter = undefined;
    this.toolChoiceSupport = toToolChoiceSupport(options.toolChoiceSupport ?? profile.toolChoiceSupport);
    this.toolCallFallbackViaResponseFormat = options.toolCallFallbackViaResponseFormat ?? true;
    this.supportsToolCalling = options.supportsToolCalling ?? profile.supportsToolCalling ?? true;
    this.supportsStructuredOutput = options.supportsStructuredOutput ?? profile.supportsStructuredOutput;
    this.supportsTopLevelUnion = options.supportsTopLevelUnion ?? profile.supportsTopLevelUnion;
    this.strictResponseFormat = options.strictResponseFormat ?? profile.strictResponseFormat ?? false;
    this.allowParallelToolCalls = options.allowParallelToolCalls ?? false;
    this.ignoreParallelToolCalls = options.ignoreParallelToolCalls ?? false;
    this.fixInvalidToolCalls = options.fixInvalidToolCalls ?? true;
    this.recoverTextToolCallsOnAuto = options.recoverTextToolCallsOnAuto ?? false;
    this.retryOnEmptyResponse = options.retryOnEmptyResponse ?? true;
    this.maxRepairAttempts = options.maxRepairAttempts ?? 2;
    this.cache = options.cache ?? new NullCache();
    this.cacheTtlMs = options.cacheTtlMs;
    this.parameters = options.parameters;
    this.unsupportedParameters = toParameterSet(
      options.unsupportedParameters ?? profile.unsupportedParameters,
      "unsupportedParameters",
    );
    this.strictParameters = options.strictParameters ?? false;
    this.retry = resolveRetryOptions(options.retry);
  }

  /** Where this model's requests go (base URL, host, region, deployment); part of the cache key. */
  protected get endpoint(): string {
    return "";
  }

  /**
   * The model's events (eventemitter3, guarded listeners): made on first read, so a model nobody
   * listens to never loads eventemitter3.
   */
  get emitter(): ChatModelEmitter {
    let emitter = this.madeEmitter;
    if (emitter === undefined) {
      emitter = this.madeEmitter = new ChatModelEmitter();
      // Calls in flight read it from here on.
      this.callsCache?.useEmitter(emitter);
    }
    return emitter;
  }

  /**
   * One reply. Given typed tools (from `defineTool`), `output.toolCalls` is a union discriminated
   * by `name`, each call's `args` typed from its tool's schema.
   */
  create<Tools extends readonly AnyTool[] = readonly AnyTool[]>(
    input: ChatModelInput<Tools>,
  ): Promise<ChatModelOutput<ToolCallOf<Tools[number]>>> {
    // The pipeline validated each call against its tool's schema: the calls are of the tools given.
    return this.createOutput(input) as Promise<ChatModelOutput<ToolCall<string, unknown>>> as Promise<
      ChatModelOutput<ToolCallOf<Tools[number]>>
    >;
  }

  private async createOutput(input: ChatModelInput): Promise<ChatModelOutput> {
    // Each event's payload is built only when the event has a listener; a listener added mid-call counts from then on.
    const callId = ++callCount;
    let emitter = this.madeEmitter ?? noListeners;
    if (emitter.listening.start) emitter.emit("start", { input, callId });
    const linked = callSignal(input?.signal, input?.timeout, false, this.plainCallsShareInertSignal);
    const { signal } = linked;
    try {
      throwIfAborted(signal);
      const calls = this.modelCalls(callPipeline.loaded ?? (await callPipeline.load()));
      const output = await calls.create(calls.prepare(input, callId), signal);
      emitter = this.madeEmitter ?? noListeners;
      if (emitter.listening.success) emitter.emit("success", { input, callId, output });
      if (emitter.listening.finish) emitter.emit("finish", { input, callId, output });
      return output;
    } catch (caught) {
      const error = callError(caught, signal);
      emitter = this.madeEmitter ?? noListeners;
      if (emitter.listening.error) emitter.emit("error", { input, callId, error });
      if (emitter.listening.finish) emitter.emit("finish", { input, callId, error });
      throw error;
    } finally {
      linked.dispose();
    }
  }

  /**
   * One reply, streamed. The request starts when the stream is iterated or `final()` is called.
   *
   * Failures and retries: a transport error before the first chunk is retried like `create`'s. Once
   * a chunk has reached the caller there is no silent retry: a stream that breaks (connection lost,
   * cut short, a malformed event, an error event) rejects with a `ProviderError` whose
   * `partialOutput` holds what arrived — never a partial reply presented as complete. A `reset`
   * chunk means keelson re-asked the model for an unusable reply and what came before is void.
   * An abort (the `signal`, the `timeout`) rejects with the platform `AbortError` / `TimeoutError`.
   */
  createStream<Tools extends readonly AnyTool[] = readonly AnyTool[]>(
    input: ChatModelInput<Tools>,
  ): ChatModelStream<ToolCallOf<Tools[number]>> {
    return new ChatModelStream((final) => this.startStream(input, final));
  }

  /** A structured object matching `schema`, parsed and validated (re-asked on a mismatch). */
  async createStructure<S extends SchemaInput>(
    input: StructureInput<S>,
  ): Promise<{ object: InferSchemaOutput<S>; output: ChatModelOutput }> {
    const { schema, name, ...rest } = input;
    const output = await this.create({
      ...rest,
      responseFormat: { type: "json-schema", schema, ...(name === undefined ? {} : { name }) },
    });
    return { object: output.object as InferSchemaOutput<S>, output };
  }

  /**
   * A copy with the same settings (support set, default parameters and retry settings included, as
   * copies of its own: a change in place on one never reaches the other), its own emitter and no
   * calls in flight. The cache is shared.
   * It copies own fields — non-enumerable ones too (an adapter's hidden credentials) — so adapters
   * keep their state in ordinary (TypeScript `private`) fields, not `#private` ones, which no copy
   * can carry.
   */
  clone(): this {
    const copy = Object.create(Object.getPrototypeOf(this) as object, Object.getOwnPropertyDescriptors(this)) as this;
    Object.assign(copy, {
      toolChoiceSupport: new Set(this.toolChoiceSupport),
      unsupportedParameters: new Set(this.unsupportedParameters),
      parameters: this.parameters === undefined ? undefined : structuredClone(this.parameters),
      retry: { ...this.retry },
      madeEmitter: undefined,
      callsCache: undefined,
    });
    return copy;
  }

  /**
   * For adapters: why this model's profile sent a call down a fallback rung, with the fix (a
   * `fallback` event's reason ends with it). @default none
   */
  protected fallbackNote(_rung: ToolChoiceRung): string | undefined {
    return undefined;
  }

  protected abstract _create(input: ProviderInput, context: RunContext): Promise<ProviderOutput>;
  protected abstract _createStream(input: ProviderInput, context: RunContext): AsyncIterable<ChatModelChunk>;

  /** Starts a streamed call: its chunks, and how it settles (events, signal released) once. */
  private startStream(input: ChatModelInput, final: StreamFinal): StreamRun {
    const callId = ++callCount;
    this.emit("start", { input, callId });
    // A stream can always be stopped (a newToken listener's abort(), a consumer that stops reading).
    const linked = callSignal(input?.signal, input?.timeout, true);
    const emit: EmitCallEvent = (event, payload) => this.emit(event, payload);
    return streamRun(input, callId, linked, emit, final, (end) => {
      throwIfAborted(linked.signal);
      const pipeline = callPipeline.loaded;
      if (pipeline) {
        const calls = this.modelCalls(pipeline);
        return calls.stream(calls.prepare(input, callId), linked, end);
      }
      // The process's first call: its chunks wait for the pipeline, and the stream settles the call.
      const loading = callPipeline.load().then((loaded) => {
        const calls = this.modelCalls(loaded);
        return calls.stream(calls.prepare(input, callId), linked).chunks;
      });
      return { chunks: deferredChunks(loading), settlesItself: false };
    });
  }

  /** This model's calls, made on its first call. */
  private modelCalls(pipeline: typeof import("./pipeline/model-calls.js")): ModelCalls {
    return (this.callsCache ??= new pipeline.ModelCalls(this, {
      request: (input, context) => this._create(input, context),
      requestStream: (input, context) => this._createStream(input, context),
      endpoint: () => this.endpoint,
      emitter: this.madeEmitter ?? noListeners,
      emit: (event, payload) => this.emit(event, payload),
      fallbackNote: (rung) => this.fallbackNote(rung),
    }));
  }

  private emit<E extends keyof ChatModelEvents>(event: E, payload: Parameters<ChatModelEvents[E]>[0]): void {
    const emitter = this.madeEmitter;
    if (!emitter?.listening[event]) return;
    (emitter.emit as (event: E, payload: unknown) => boolean)(event, payload);
  }
}
