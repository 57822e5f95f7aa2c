import type { ChatModelCache } from "./chat-model-cache.js";

/** Keeps nothing. The default: caching is opt-in. */
export class NullCache implements ChatModelCache {
  /** Lets the pipeline skip key computation altogether. */
  readonly isNull = true;

  async get(_key: string): Promise<unknown> {
    return undefined;
  }

  async set(_key: string, _value: unknown, _ttlMs?: number): Promise<void> {}

  async delete(_key: string): Promise<void> {}
}
