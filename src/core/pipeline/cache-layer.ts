import { abortError, isAbortError, settleOnAbort } from "../../internal/abort.js";
import type { CacheEntry } from "../cache/cache-entry.js";
import { chunksFromCache, isCacheEntry, outputFromCache } from "../cache/cache-entry.js";
import { entryFitsCall } from "../cache/entry-fits-call.js";
import type { ChatModelCache } from "../cache/chat-model-cache.js";
import type { ChatModelEmitter } from "../chat-model-emitter.js";
import type { ChatModelOutput } from "../output.js";
import type { ChatModelChunk } from "../stream/chat-model-chunk.js";
import type { PreparedCall } from "./prepare-call.js";

export interface CacheSettings {
  cache: ChatModelCache;
  ttlMs: number | undefined;
  emitter: ChatModelEmitter;
}

/**
 * The cache around a call: a stored answer is served as a copy; identical calls in flight share
 * one request (single-flight); only final, validated answers are stored; a failure stores nothing.
 */
interface Lead {
  settle(entry: CacheEntry): void;
  fail(error: unknown): void;
}

export class CacheLayer {
  readonly #inFlight = new Map<string, Promise<CacheEntry>>();

  async create(
    key: string,
    call: PreparedCall,
    signal: AbortSignal,
    settings: CacheSettings,
    run: () => Promise<ChatModelOutput>,
  ): Promise<ChatModelOutput> {
    const { joined, lead } = await this.#joinOrLead(key, call, signal, settings);
    if (joined) return outputFromCache(joined);
    try {
      const stored = await this.#read(key, call, settings);
      if (stored) {
        lead.settle(stored);
        return outputFromCache(stored);
      }
      const output = await run();
      lead.settle(await this.#store(key, { output }, call, settings));
      return output;
    } catch (error) {
      lead.fail(error);
      throw error;
    }
  }

  async *stream(
    key: string,
    call: PreparedCall,
    signal: AbortSignal,
    settings: CacheSettings,
    onToken: (chunk: ChatModelChunk) => void,
    run: () => AsyncIterator<ChatModelChunk, ChatModelOutput>,
    stopped: () => boolean,
  ): AsyncGenerator<ChatModelChunk, ChatModelOutput> {
    const joinedOrLead = await this.#joinOrLead(key, call, signal, settings);
    const lead = joinedOrLead.lead;
    let hit = joinedOrLead.joined;
    let running: AsyncIterator<ChatModelChunk, ChatModelOutput> | undefined;
    try {
      hit ??= await this.#read(key, call, settings);
      if (hit) {
        lead?.settle(hit);
        const output = outputFromCache(hit);
        for (const chunk of chunksFromCache(hit, output)) {
          onToken(chunk);
          yield chunk;
        }
        return output;
      }
      const chunks: ChatModelChunk[] = [];
      running = run();
      for (let next = await running.next(); ; next = await running.next()) {
        if (next.done) {
          running = undefined;
          if (!stopped()) lead?.settle(await this.#store(key, { output: next.value, chunks }, call, settings));
          return next.value;
        }
        if (next.value.type === "reset") chunks.length = 0;
        else chunks.push(next.value);
        yield next.value;
      }
    } catch (error) {
      lead?.fail(error);
      throw error;
    } finally {
      // A stream closed or stopped early ends the lead; waiting sharers then make their own request.
      lead?.fail(abortError(undefined));
      // And lets go of the provider's stream at once, rather than when its signal is noticed.
      await running?.return?.().catch(() => undefined);
    }
  }

  /**
   * Waits for an identical call in flight, or — found none — becomes the call others wait for, in
   * the same synchronous step (so two calls can never both lead). When the call waited for ends by
   * its own caller's abort, this one goes on (and the first to resume leads the rest).
   */
  async #joinOrLead(
    key: string,
    call: PreparedCall,
    signal: AbortSignal,
    settings: CacheSettings,
  ): Promise<{ joined: CacheEntry; lead?: undefined } | { joined?: undefined; lead: Lead }> {
    for (let pending = this.#inFlight.get(key); pending; pending = this.#inFlight.get(key)) {
      try {
        const joined = await settleOnAbort(pending, signal);
        hit(settings, call, key);
        return { joined };
      } catch (error) {
        if (signal.aborted || !isAbortError(error)) throw error;
      }
    }
    return { lead: this.#lead(key) };
  }

  /** Registers this call as the one identical calls wait for, synchronously (no gap for a race). */
  #lead(key: string): Lead {
    let resolve!: (entry: CacheEntry) => void;
    let reject!: (error: unknown) => void;
    const shared = new Promise<CacheEntry>((onResolve, onReject) => {
      resolve = onResolve;
      reject = onReject;
    });
    shared.catch(() => undefined);
    this.#inFlight.set(key, shared);
    const release = () => {
      if (this.#inFlight.get(key) === shared) this.#inFlight.delete(key);
    };
    return {
      settle: (entry) => {
        release();
        resolve(entry);
      },
      fail: (error) => {
        release();
        reject(error);
      },
    };
  }

  /** A stored answer that fits the call; one that does not is dropped. */
  async #read(key: string, call: PreparedCall, settings: CacheSettings): Promise<CacheEntry | undefined> {
    try {
      const stored = await settings.cache.get(key);
      if (isCacheEntry(stored) && entryFitsCall(stored, call)) {
        hit(settings, call, key);
        return stored;
      }
      if (stored !== undefined) await settings.cache.delete(key);
    } catch (error) {
      warn(settings, call, `cache read failed, calling the provider: ${(error as Error).message}`);
    }
    return undefined;
  }

  async #store(key: string, entry: CacheEntry, call: PreparedCall, settings: CacheSettings): Promise<CacheEntry> {
    try {
      await settings.cache.set(key, structuredClone(entry), settings.ttlMs);
    } catch (error) {
      warn(settings, call, `cache write failed, the answer is returned but not kept: ${(error as Error).message}`);
    }
    return entry;
  }
}

function hit(settings: CacheSettings, call: PreparedCall, key: string): void {
  if (settings.emitter.listening.cacheHit) settings.emitter.emit("cacheHit", { input: call.input, key });
}

function warn(settings: CacheSettings, call: PreparedCall, message: string): void {
  if (settings.emitter.listening.warning) {
    settings.emitter.emit("warning", { input: call.input, code: "cache-error", message });
  }
}
