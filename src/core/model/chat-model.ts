import { countTokens, type TokenCount } from "./count-tokens.js";
import { createStructure } from "./create-structure.js";
import { callTimeout } from "../budgets/call-timeout.js";
import { callError, callSignal, throwIfAborted, type CallSignal } from "../../internal/abort.js";
import { callChunks, runCall, type CallDependencies } from "../call/index.js";
import { callDependenciesOf } from "./call-dependencies-of.js";
import { ChatModelEmitter } from "../emitter/chat-model-emitter.js";
import type { ChatModelLike } from "./chat-model-like.js";
import { ModelCache } from "./model-cache.js";
import { ChatModelSettings } from "./chat-model-settings.js";
import type { ChatModelEvents } from "../events.js";
import type {
  ChatModelInput,
  InferResponseFormatOutput,
  InferSchemaOutput,
  ProviderInput,
  ResponseFormat,
  RunContext,
  StructureInput,
} from "../input.js";
import type { ToolCall } from "../messages.js";
import type { ChatModelOutput, ProviderOutput, ToolChoiceRung } from "../output.js";
import type { AnyTool, ToolCallOf } from "../tool.js";
import type { SchemaInput } from "../schema/schema-input.js";
import type { ChatModelChunk } from "../stream/chat-model-chunk.js";
import { ChatModelStream, type StreamCall } from "../stream/chat-model-stream.js";
import type { EmitterSlot } from "../emitter/emitter-slot.js";

/** Reads what a model hands its calls (see providerOf); set by ChatModel's static block. */
let readDependencies: (model: ChatModel) => CallDependencies;

/**
 * What `model` hands its calls, its provider requests (`provider`: the adapter's, its middleware and
 * rate limit around them), `endpoint` and capability `scope` among them: for a model that answers
 * through another one (`RecordingChatModel`) without reaching into its protected members.
 */
export function providerOf(model: ChatModel): CallDependencies {
  return readDependencies(model);
}

/** The calls made so far in this process, by every model: the last call's `callId`. */
let callCount = 0;

/** A new call's `callId` (for a model that runs its calls itself, as `withFallbacks`'s does). */
export function nextCallId(): number {
  return ++callCount;
}

/**
 * One chat-model interface for every provider. The base class owns the pipeline — input
 * normalisation, the tool_choice ladder, cache, retries, repair, validation and events — once;
 * an adapter declares its profile and implements `_create` and `_createStream`. Its settings are
 * the fields it inherits (`core/model/chat-model-settings.ts`); this class holds a call's lifetime (its signal, events,
 * cache decision and run), its events and its copies.
 */
export abstract class ChatModel extends ChatModelSettings implements ChatModelLike {
  static {
    readDependencies = (model) => model.dependencies();
  }

  /** The emitter, once `emitter` was first read: until then no one can be listening. Its calls read it here. */
  private events: EmitterSlot = { emitter: undefined };
  /**
   * For adapters: set true when this adapter never hands a call's signal to `AbortSignal.any`.
   * A call nothing can end early (no signal, no timeout, not a stream) then gets one shared signal
   * that never aborts and keeps no listeners, instead of an AbortController of its own (the
   * largest allocation of a plain call: without it an Ollama call cost 599k instructions against
   * 543k, 10 %, npm run bench:instructions). Off by default: on Node 20, `AbortSignal.any` keeps a
   * reference on its source signal for every use, which a shared signal would collect forever.
   */
  protected readonly plainCallsShareInertSignal: boolean = false;
  /** What this model hands its calls (made on its first call; a clone makes its own). */
  private handed: CallDependencies | undefined;
  /** Its cache as its calls use it: keys, and identical calls in flight sharing one request (see cached()). */
  private modelCache: ModelCache | undefined;

  /**
   * The model's events (eventemitter3, guarded listeners): made on first read, so a model nobody
   * listens to never loads eventemitter3.
   */
  get emitter(): ChatModelEmitter {
    // Calls in flight read it from here on (they read the slot at each use).
    return (this.events.emitter ??= new ChatModelEmitter());
  }

  /**
   * One reply. Given typed tools (from `defineTool`), `output.toolCalls` is a union discriminated
   * by `name`, each call's `args` typed from its tool's schema.
   */
  create<Tools extends readonly AnyTool[] = readonly AnyTool[], Format extends ResponseFormat = ResponseFormat>(
    input: ChatModelInput<Tools, Format>,
  ): Promise<ChatModelOutput<ToolCallOf<Tools[number]>, InferResponseFormatOutput<Format>>> {
    // The pipeline validated each call against its tool's schema, and the object against the format's.
    return this.createOutput(input) as Promise<ChatModelOutput<ToolCall<string, unknown>>> as Promise<
      ChatModelOutput<ToolCallOf<Tools[number]>, InferResponseFormatOutput<Format>>
    >;
  }

  /** One reply: the call prepared, answered from the cache or run (runCall), its events emitted. */
  private async createOutput(input: ChatModelInput): Promise<ChatModelOutput> {
    const callId = ++callCount;
    // Set once the input is checked (prepare rejects a signal that is no AbortSignal): every failure
    // from the `start` on, that one included, ends in `error` and `finish`.
    let linked: CallSignal | undefined;
    try {
      this.emit("start", { input, callId });
      const call = this.dependencies().prepare(input, callId);
      const { totalMs } = callTimeout(input.timeout, this.timeout);
      linked = callSignal(input.signal, totalMs, false, this.plainCallsShareInertSignal);
      const { signal } = linked;
      throwIfAborted(signal);
      const run = () => finalValue(runCall(this.dependencies(), call, linked!, false));
      const key = this.cached().keyOf(call);
      const output = await (key === undefined ? run() : this.cached().create(key, call, signal, run));
      this.emit("success", { input, callId, output });
      this.emit("finish", { input, callId, output });
      return output;
    } catch (caught) {
      const error = callError(caught, linked?.signal);
      this.emit("error", { input, callId, error });
      this.emit("finish", { input, callId, error });
      throw error;
    } finally {
      linked?.dispose();
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
  createStream<Tools extends readonly AnyTool[] = readonly AnyTool[], Format extends ResponseFormat = ResponseFormat>(
    input: ChatModelInput<Tools, Format>,
  ): ChatModelStream<ToolCallOf<Tools[number]>, InferResponseFormatOutput<Format>> {
    return new ChatModelStream(() => this.openStream(input)) as ChatModelStream<
      ToolCallOf<Tools[number]>,
      InferResponseFormatOutput<Format>
    >;
  }

  /** A structured object matching `schema`, parsed and validated (re-asked on a mismatch). */
  createStructure<S extends SchemaInput>(
    input: StructureInput<S>,
  ): Promise<{ object: InferSchemaOutput<S>; output: ChatModelOutput }> {
    return createStructure(this, input);
  }

  /**
   * The input tokens `input` would cost on this model, sent as `create` sends it: the provider's
   * count endpoint where it has one (`exact: true`; Anthropic's count_tokens, the Responses API's
   * input_tokens), else keelson's estimate (`exact: false`: OpenAI's tokenizer for OpenAI's models,
   * otherwise a per-provider ratio corrected by the usage reported in this process).
   */
  countTokens(input: ChatModelInput): Promise<TokenCount> {
    return countTokens(this, input, (provided) => this._countTokens(provided));
  }

  /**
   * For adapters: the provider's own count of the input tokens of `input`, from its count endpoint.
   * @default none (undefined: keelson estimates)
   */
  protected _countTokens(_input: ProviderInput): Promise<number | undefined> {
    return Promise.resolve(undefined);
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
      events: { emitter: undefined },
      handed: undefined,
      modelCache: undefined,
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

  /**
   * A streamed call, as `create` runs one, opened on its stream's first read: `start`, the input
   * checked, its chunks from the cache or runCall (callChunks); its ChatModelStream ends it once (`success` or
   * `error`, then `finish`), and stops its request when the consumer stops reading. Not a generator
   * wrapping runCall: that level cost an Ollama stream 4 % of its instructions (5922k → 5670k).
   */
  private openStream(input: ChatModelInput): StreamCall {
    const callId = ++callCount;
    let linked: CallSignal | undefined;
    const failed = (caught: unknown): Error => {
      const error = callError(caught, linked?.signal);
      linked?.dispose();
      this.emit("error", { input, callId, error });
      this.emit("finish", { input, callId, error });
      return error;
    };
    try {
      this.emit("start", { input, callId });
      const call = this.dependencies().prepare(input, callId);
      // A stream can always be stopped (a newToken listener's abort(), a consumer that stops reading).
      const own = (linked = callSignal(input.signal, callTimeout(input.timeout, this.timeout).totalMs, true));
      throwIfAborted(own.signal);
      const key = this.cached().keyOf(call);
      const start = () => callChunks(runCall(this.dependencies(), call, own, true));
      return {
        chunks: key === undefined ? start() : this.cached().stream(key, call, own, start),
        succeeded: (output) => {
          own.dispose();
          this.emit("success", { input, callId, output });
          this.emit("finish", { input, callId, output });
        },
        failed,
        stop: own.abort,
      };
    } catch (caught) {
      throw failed(caught);
    }
  }

  /**
   * What this model hands its calls, once (made on its first call; a clone makes its own): its
   * settings, its emitter slot, and its adapter's hooks bound to it with its middleware around them.
   */
  private dependencies(): CallDependencies {
    return (this.handed ??= callDependenciesOf(
      this,
      { create: this._create.bind(this), stream: this._createStream.bind(this) },
      this.events,
      { endpoint: this.endpoint, capabilityScope: this.capabilityScope },
      this.fallbackNote.bind(this),
    ));
  }

  /** The model's cache as its calls use it (made on its first call; a clone makes its own). */
  private cached(): ModelCache {
    return (this.modelCache ??= new ModelCache(this, this.events, this.endpoint));
  }

  /** Emits an event when it has a listener (the emitter is asked first; the caller has built the payload). */
  protected emit<E extends keyof ChatModelEvents>(event: E, payload: Parameters<ChatModelEvents[E]>[0]): void {
    const emitter = this.events.emitter;
    if (!emitter?.listens(event)) return;
    (emitter.emit as (event: E, payload: unknown) => boolean)(event, payload);
  }
}

/** A call run for its value alone (`create`): nothing is yielded on the way. */
async function finalValue<T>(run: AsyncGenerator<unknown, T, undefined>): Promise<T> {
  for (;;) {
    const result = await run.next();
    if (result.done) return result.value;
  }
}
