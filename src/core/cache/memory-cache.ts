import type { ChatModelCache } from "./chat-model-cache.js";

/** Options of `MemoryCache`. */
export interface MemoryCacheOptions {
  /** Entries kept before the least recently used is evicted. @default 1000 */
  maxEntries?: number | undefined;
  /** Default time to live of an entry, in milliseconds. @default Infinity (no expiry) */
  ttlMs?: number | undefined;
}

interface Entry {
  value: unknown;
  expiresAt: number;
}

/** An in-process LRU cache with optional expiry. */
export class MemoryCache implements ChatModelCache {
  readonly #entries = new Map<string, Entry>();
  readonly #maxEntries: number;
  readonly #ttlMs: number;

  constructor(options: MemoryCacheOptions = {}) {
    const { maxEntries = 1000, ttlMs = Number.POSITIVE_INFINITY } = options;
    if (!Number.isInteger(maxEntries) || maxEntries < 1) {
      throw new TypeError(`MemoryCache: maxEntries must be a positive integer, got ${maxEntries}.`);
    }
    if (!(ttlMs > 0)) throw new TypeError(`MemoryCache: ttlMs must be a positive number, got ${ttlMs}.`);
    this.#maxEntries = maxEntries;
    this.#ttlMs = ttlMs;
  }

  get size(): number {
    return this.#entries.size;
  }

  async get(key: string): Promise<unknown> {
    const entry = this.#entries.get(key);
    if (!entry) return undefined;
    this.#entries.delete(key);
    if (entry.expiresAt <= Date.now()) return undefined;
    this.#entries.set(key, entry); // most recently used goes last
    return entry.value;
  }

  async set(key: string, value: unknown, ttlMs?: number): Promise<void> {
    this.#entries.delete(key);
    this.#entries.set(key, { value, expiresAt: Date.now() + (ttlMs ?? this.#ttlMs) });
    while (this.#entries.size > this.#maxEntries) {
      const oldest = this.#entries.keys().next().value as string;
      this.#entries.delete(oldest);
    }
  }

  async delete(key: string): Promise<void> {
    this.#entries.delete(key);
  }

  /** The keys held, least recently used first (expired ones included until they are read). */
  keys(): string[] {
    return [...this.#entries.keys()];
  }

  clear(): void {
    this.#entries.clear();
  }
}
