/**
 * Where answers are kept. Values are plain JSON-serialisable data, so any key-value store fits
 * (see `KeyvCache` for Redis, SQLite, Postgres and the rest).
 */
export interface ChatModelCache {
  get(key: string): Promise<unknown>;
  set(key: string, value: unknown, ttlMs?: number): Promise<void>;
  delete(key: string): Promise<void>;
}
