import type { ModelSettings } from "../model-settings.js";
import type { CallSignal } from "../../internal/abort.js";
import type { PreparedCall } from "../call/index.js";
import { cacheKey } from "../cache/cache-key.js";
import { CacheLayer, type CacheLayerOptions } from "../cache/cache-layer.js";
import type { ChatModelOutput } from "../output.js";
import { isDelta, type ChatModelChunk } from "../stream/chat-model-chunk.js";
import { sinkOf, type EmitterSlot } from "../emitter/emitter-slot.js";

/**
 * The cache as one model's calls use it: each call's key, and the layer that serves a stored answer,
 * lets identical calls in flight share one request and stores what was validated (made on the first
 * cached call; a clone makes its own, sharing the store).
 */
export class ModelCache {
  private readonly model: ModelSettings;
  private readonly events: EmitterSlot;
  private readonly endpoint: string;
  private layer: CacheLayer | undefined;

  constructor(model: ModelSettings, events: EmitterSlot, endpoint: string) {
    this.model = model;
    this.events = events;
    this.endpoint = endpoint;
  }

  /** The call's cache key, or undefined when it bypasses the cache (none set, or `cache: false`). */
  keyOf(call: PreparedCall): string | undefined {
    const { model } = this;
    if (!call.useCache || (model.cache as { isNull?: boolean }).isNull === true) return undefined;
    return cacheKey({ providerId: model.providerId, modelId: model.modelId, endpoint: this.endpoint }, call);
  }

  /** A call through the cache: a stored answer, a share of an identical call in flight, or `run()`'s answer, kept. */
  create(key: string, call: PreparedCall, signal: AbortSignal, run: () => Promise<ChatModelOutput>) {
    return (this.layer ??= new CacheLayer()).create(key, call, signal, this.settings(), run);
  }

  /** A streamed call through the cache: a stored answer replayed, or the call run (`start`) and its answer kept. */
  stream(
    key: string,
    call: PreparedCall,
    linked: CallSignal,
    start: () => AsyncIterator<ChatModelChunk, ChatModelOutput>,
  ): AsyncGenerator<ChatModelChunk, ChatModelOutput, undefined> {
    let stoppedByListener = false;
    const stop = () => {
      stoppedByListener = true;
      linked.abort();
    };
    const onToken = (chunk: ChatModelChunk) => {
      const emitter = this.events.emitter;
      if (emitter?.listens("newToken") && isDelta(chunk))
        emitter.emit("newToken", { input: call.input, callId: call.callId, chunk, abort: stop });
    };
    const layer = (this.layer ??= new CacheLayer());
    return layer.stream(key, call, linked.signal, this.settings(), onToken, start, () => stoppedByListener);
  }

  private settings(): CacheLayerOptions {
    const { model, events } = this;
    return {
      cache: model.cache,
      ttlMs: model.cacheTtlMs,
      timeoutMs: model.cacheTimeoutMs,
      get emitter() {
        return sinkOf(events);
      },
    };
  }
}
