import { isDeepStrictEqual } from "node:util";
import { abortError, isAbortError, settleOnAbort } from "../../internal/abort.js";
import { describeThrown } from "../../internal/describe-thrown.js";
import { partialOutput, type PreparedCall } from "../call/index.js";
import { schemaInputOf } from "../schema/kept-schema-inputs.js";
import type { CacheEntry } from "./cache-entry.js";
import { chunksFromCache, outputFromCache } from "./cache-entry.js";
import { entryFitsCall } from "./entry-fits-call.js";
import { GuardedStore } from "./guarded-store.js";
import { readCacheEntry } from "./read-cache-entry.js";
import type { ChatModelCache } from "./chat-model-cache.js";
import type { EventSink } from "../emitter/chat-model-emitter.js";
import type { ChatModelOutput } from "../output.js";
import { isDelta, type ChatModelChunk } from "../stream/chat-model-chunk.js";
import { StreamAssembler } from "../stream/stream-assembler.js";

export interface CacheLayerOptions {
  cache: ChatModelCache;
  ttlMs: number | undefined;
  /** How long a read is waited for before the call goes on as a miss (and a write is reported as hanging). */
  timeoutMs: number;
  readonly emitter: EventSink;
}

interface Lead {
  settle(entry: CacheEntry): void;
  fail(error: unknown): void;
}

/**
 * The cache around a call: a stored answer is served as a copy; identical calls in flight share
 * one request (single-flight); only final, validated answers are stored; a failure stores nothing.
 * The store never holds an answer back: reads are bounded, writes are not waited for.
 */
export class CacheLayer {
  readonly #inFlight = new Map<string, Promise<CacheEntry>>();
  readonly #store = new GuardedStore();

  async create(
    key: string,
    call: PreparedCall,
    signal: AbortSignal,
    settings: CacheLayerOptions,
    run: () => Promise<ChatModelOutput>,
  ): Promise<ChatModelOutput> {
    const { joined, lead } = await this.#joinOrLead(key, call, signal, settings);
    if (joined) return outputFromCache(joined);
    try {
      const stored = await this.#read(key, call, signal, settings);
      if (stored) {
        lead.settle(stored);
        return outputFromCache(stored);
      }
      const output = await run();
      lead.settle(this.#write(key, { output }, call, settings));
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
    settings: CacheLayerOptions,
    onToken: (chunk: ChatModelChunk) => void,
    run: () => AsyncIterator<ChatModelChunk, ChatModelOutput>,
    /** Whether a newToken listener's abort() (rather than the caller's signal) aborted `signal`. */
    stoppedByListener: () => boolean,
  ): AsyncGenerator<ChatModelChunk, ChatModelOutput> {
    const joinedOrLead = await this.#joinOrLead(key, call, signal, settings);
    const lead = joinedOrLead.lead;
    let hit = joinedOrLead.joined;
    let running: AsyncIterator<ChatModelChunk, ChatModelOutput> | undefined;
    try {
      hit ??= await this.#read(key, call, signal, settings);
      if (hit) {
        lead?.settle(hit);
        const output = outputFromCache(hit);
        const replay = chunksFromCache(hit, output);
        for (let index = 0; index < replay.length; index++) {
          // A replay ends as a live stream does: an abort with the AbortError, a listener's abort() with what came so far.
          if (signal.aborted) {
            if (!stoppedByListener()) throw abortError(signal);
            return replayedSoFar(replay, index, call);
          }
          const chunk = replay[index]!;
          if (isDelta(chunk)) onToken(chunk);
          yield chunk;
        }
        return output;
      }
      const chunks: ChatModelChunk[] = [];
      running = run();
      for (let next = await running.next(); ; next = await running.next()) {
        if (next.done) {
          running = undefined;
          if (!signal.aborted) lead?.settle(this.#write(key, { output: next.value, chunks }, call, settings));
          return next.value;
        }
        if (next.value.type === "reset") chunks.length = 0;
        else chunks.push(next.value);
        // The consumer gets a copy: what it changes in a chunk (a tool call's args) is neither the output nor what is stored.
        yield copyChunk(next.value);
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
    settings: CacheLayerOptions,
  ): Promise<{ joined: CacheEntry; lead?: undefined } | { joined?: undefined; lead: Lead }> {
    for (let pending = this.#inFlight.get(key); pending; pending = this.#inFlight.get(key)) {
      try {
        // An answer this call's schemas do not accept is not shared: the call then makes its own request.
        const joined = entryFitsCall(await settleOnAbort(pending, signal), call);
        if (joined === undefined) continue;
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

  /**
   * A stored answer that fits the call, read and checked as fresh output is; one that does not is
   * dropped (and deleted, not waited for). A store that fails, hangs past `timeoutMs` or gives back
   * something that is no entry is a miss: the call goes on to the provider. Only the call's signal
   * or timeout ends the read with an error, at once.
   */
  async #read(
    key: string,
    call: PreparedCall,
    signal: AbortSignal,
    settings: CacheLayerOptions,
  ): Promise<CacheEntry | undefined> {
    const { cache, timeoutMs } = settings;
    const stored = await this.#store.read(cache, key, timeoutMs, signal, (message) => warn(settings, call, message));
    // null too: a store over Redis or SQL may answer a miss with it.
    if (stored === undefined || stored === null) return undefined;
    let fitting: CacheEntry | undefined;
    try {
      const read = readCacheEntry(stored);
      if (read.problem !== undefined)
        warn(settings, call, `cache entry dropped, calling the provider: ${read.problem}`);
      // A validator is the caller's code: one that throws on what the store gave makes the entry unfit, not the call fail.
      fitting = read.entry && entryFitsCall(read.entry, call);
    } catch (error) {
      warn(settings, call, `cache entry dropped, calling the provider: ${describeThrown(error)}`);
    }
    if (fitting) {
      hit(settings, call, key);
      return fitting;
    }
    this.#store.remove(cache, key, (message) => warn(settings, call, message));
    return undefined;
  }

  /**
   * Starts storing a copy, not waited for; returns the entry (with what its schemas were given)
   * for the calls that shared the request.
   */
  #write(key: string, entry: CacheEntry, call: PreparedCall, settings: CacheLayerOptions): CacheEntry {
    const report = (message: string) => warn(settings, call, message);
    let checked: CacheEntry;
    let copy: CacheEntry;
    try {
      checked = withSchemaInputs(entry);
      copy = structuredClone(checked);
    } catch (error) {
      report(`cache write skipped, the answer is returned but not kept: ${describeThrown(error)}`);
      return entry;
    }
    this.#store.write(settings.cache, key, copy, settings.ttlMs, settings.timeoutMs, report);
    return checked;
  }
}

/** The entry with what its schemas were given, kept only where a schema changed it (transforms, defaults): the rest are checked as they are. */
function withSchemaInputs(entry: CacheEntry): CacheEntry {
  const { toolCalls, object } = entry.output;
  const inputs = toolCalls.map((toolCall) => schemaInputOf(toolCall, toolCall.args));
  // Deep equality, not equal JSON: a Date made from an ISO string has that string as its JSON, yet the schema rejects it.
  const changed = (input: unknown, index: number) =>
    input !== toolCalls[index]!.args && !isDeepStrictEqual(input, toolCalls[index]!.args);
  const input = schemaInputOf(entry.output, object);
  return {
    ...entry,
    ...(inputs.some(changed) ? { toolCallInputs: inputs } : {}),
    ...(input === object ? {} : { structureInput: input }),
  };
}

/** The partial output of a replay stopped before chunk `end`, as a live stream stopped there gives it. */
function replayedSoFar(replay: readonly ChatModelChunk[], end: number, call: PreparedCall): ChatModelOutput {
  const assembler = new StreamAssembler();
  for (let index = 0; index < end; index++) assembler.add(replay[index]!);
  const partial = partialOutput(assembler.output(), call, []);
  partial.meta.cacheHit = true;
  return partial;
}

/**
 * A chunk to hand out: a whole tool call cloned (its arguments nest), usage copied, deltas copied
 * (they hold strings and numbers); a finish chunk's `raw` stays the provider's, as in a live stream.
 */
function copyChunk(chunk: ChatModelChunk): ChatModelChunk {
  switch (chunk.type) {
    case "tool-call":
      return { type: "tool-call", toolCall: structuredClone(chunk.toolCall) };
    case "usage":
      return { type: "usage", usage: { ...chunk.usage } };
    case "finish":
      return chunk.usage ? { ...chunk, usage: { ...chunk.usage } } : { ...chunk };
    default:
      return { ...chunk };
  }
}

function hit(settings: CacheLayerOptions, call: PreparedCall, key: string): void {
  if (settings.emitter.listens("cacheHit"))
    settings.emitter.emit("cacheHit", { input: call.input, callId: call.callId, key });
}

function warn(settings: CacheLayerOptions, call: PreparedCall, message: string): void {
  try {
    if (settings.emitter.listens("warning"))
      settings.emitter.emit("warning", { input: call.input, callId: call.callId, code: "cache-error", message });
  } catch {
    // The emitter guards its listeners; nothing a warning does may fail the call.
  }
}
