import type { ChatModelCache } from "./chat-model-cache.js";

/** The part of a Keyv instance keelson uses (so keelson itself never loads keyv). */
export interface KeyvLike {
  get(key: string): Promise<unknown>;
  set(key: string, value: unknown, ttl?: number): Promise<unknown>;
  delete(key: string): Promise<unknown>;
}

/**
 * A cache on any Keyv store — Redis, Valkey, SQLite, Postgres, MySQL, Mongo, … — so a fleet of
 * processes shares answers:
 *
 * ```ts
 * import Keyv from "keyv";
 * import KeyvRedis from "@keyv/redis";
 * const cache = new KeyvCache(new Keyv({ store: new KeyvRedis("redis://127.0.0.1:6379"), namespace: "keelson" }));
 * const model = new OpenAIChatModel("gpt-4o", { cache });
 * ```
 */
export class KeyvCache implements ChatModelCache {
  readonly #keyv: KeyvLike;

  constructor(keyv: KeyvLike) {
    if (
      !keyv ||
      typeof keyv.get !== "function" ||
      typeof keyv.set !== "function" ||
      typeof keyv.delete !== "function"
    ) {
      throw new TypeError(
        "KeyvCache expects a Keyv instance, e.g. new KeyvCache(new Keyv({ store: new KeyvRedis(url) })).",
      );
    }
    this.#keyv = keyv;
  }

  async get(key: string): Promise<unknown> {
    return (await this.#keyv.get(key)) ?? undefined;
  }

  async set(key: string, value: unknown, ttlMs?: number): Promise<void> {
    // Keyv catches its store's error (unless throwOnErrors) and resolves false: a write that failed all the same.
    if ((await this.#keyv.set(key, value, keyvTtl(ttlMs))) === false) {
      throw new Error(
        "the Keyv store did not keep the entry (Keyv's set() resolved false; its 'error' event carries the cause).",
      );
    }
  }

  async delete(key: string): Promise<void> {
    await this.#keyv.delete(key);
  }
}

/**
 * A time to live as Keyv's stores take it: whole milliseconds (Redis refuses a fraction), and 0 for
 * none, which Keyv reads as no expiry (Infinity would be refused).
 */
function keyvTtl(ttlMs: number | undefined): number | undefined {
  if (ttlMs === undefined) return undefined;
  return ttlMs === Number.POSITIVE_INFINITY ? 0 : Math.ceil(ttlMs);
}
