import { createHash } from "node:crypto";
import { withTimeout } from "../internal/with-timeout.js";
import {
  type CallOutcome,
  type HealthBook,
  LocalHealth,
  type MemberHealth,
  type Warn,
  latencyWeight,
} from "./member-health.js";
import type { RouterStore } from "./router-options.js";

/** How long a process keeps its own health after the store failed, before it asks the store again. */
const storeRetryMs = 5_000;
/** How long a member's health stays in the store after its last call, in seconds (a group no one uses leaves nothing behind). */
const keepSeconds = 3_600;

/** Each member's health: [calls in flight, failures, latency] and the rest's time to live (PTTL: negative when none). */
const readScript = `local out = {}
for i = 1, #KEYS, 2 do
  local h = redis.call('HMGET', KEYS[i], 'inFlight', 'failures', 'latency')
  out[#out + 1] = {h[1] or '', h[2] or '', h[3] or '', redis.call('PTTL', KEYS[i + 1])}
end
return out`;

const startScript = `redis.call('HINCRBY', KEYS[1], 'inFlight', 1)
redis.call('EXPIRE', KEYS[1], ARGV[1])
return 1`;

/** ARGV: was it counted in flight ('1'), outcome kind, latency or rest (ms), weight, seconds to keep. */
const endScript = `if ARGV[1] == '1' then
  if redis.call('HINCRBY', KEYS[1], 'inFlight', -1) < 0 then redis.call('HSET', KEYS[1], 'inFlight', 0) end
end
if ARGV[2] == 'answered' then
  local old = tonumber(redis.call('HGET', KEYS[1], 'latency'))
  local new = tonumber(ARGV[3])
  if old then new = old + tonumber(ARGV[4]) * (new - old) end
  redis.call('HSET', KEYS[1], 'latency', tostring(new))
  redis.call('DEL', KEYS[2])
elseif ARGV[2] == 'failed' then
  redis.call('HINCRBY', KEYS[1], 'failures', 1)
  local rest = tonumber(ARGV[3])
  if rest > 0 and redis.call('PTTL', KEYS[2]) < rest then redis.call('SET', KEYS[2], '1', 'PX', rest) end
end
redis.call('EXPIRE', KEYS[1], ARGV[5])
return 1`;

/**
 * The group's health kept in Redis, shared by every process that builds the same group on the
 * same store: each member's calls in flight, failures and moving-average latency in a hash, its
 * rest in a key that expires when the rest ends (no clock is compared between processes). Every
 * event is also kept in the process: when the store fails or does not answer in time, the process
 * reads its own health (and `warn`s once) until the store answers again; a call never waits longer
 * than `timeoutMs` for the store, and never fails because of it.
 */
export class SharedHealth implements HealthBook {
  readonly #local: LocalHealth;
  readonly #store: RouterStore;
  readonly #keys: { stats: string; rest: string }[];
  readonly #timeoutMs: number;
  #downUntil = 0;
  #warned = false;

  constructor(store: RouterStore, group: string, size: number, timeoutMs: number) {
    this.#local = new LocalHealth(size);
    this.#store = store;
    // The name may hold anything: only its hash goes into the keys.
    const prefix = `keelson:router:${createHash("sha256").update(group).digest("hex").slice(0, 24)}`;
    this.#keys = Array.from({ length: size }, (_, index) => ({
      stats: `${prefix}:${index}`,
      rest: `${prefix}:${index}:rest`,
    }));
    this.#timeoutMs = timeoutMs;
  }

  async read(warn: Warn): Promise<MemberHealth[]> {
    const keys = this.#keys.flatMap(({ stats, rest }) => [stats, rest]);
    const rows = await this.#run(["EVAL", readScript, String(keys.length), ...keys], warn);
    const parsed = rows === undefined ? undefined : parseRows(rows, this.#keys.length);
    return parsed ?? this.#local.snapshot();
  }

  start(index: number, warn: Warn): (outcome: CallOutcome) => void {
    const endLocal = this.#local.start(index);
    const keys = this.#keys[index]!;
    const counted = this.#run(["EVAL", startScript, "1", keys.stats, String(keepSeconds)], warn).then(
      (reply) => reply !== undefined,
    );
    return (outcome) => {
      endLocal(outcome);
      const value =
        outcome.kind === "answered" ? outcome.latencyMs : outcome.kind === "failed" ? Math.ceil(outcome.restMs) : 0;
      void counted.then((inFlight) =>
        this.#run(
          [
            "EVAL",
            endScript,
            "2",
            keys.stats,
            keys.rest,
            inFlight ? "1" : "0",
            outcome.kind,
            String(value),
            String(latencyWeight),
            String(keepSeconds),
          ],
          warn,
        ),
      );
    };
  }

  /** One command on the store, or undefined when the store is down, fails or does not answer in time. */
  async #run(command: string[], warn: Warn): Promise<unknown> {
    if (Date.now() < this.#downUntil) return undefined;
    try {
      const reply = await withTimeout(sendCommand(this.#store, command), this.#timeoutMs);
      this.#warned = false;
      return reply;
    } catch (error) {
      this.#downUntil = Date.now() + storeRetryMs;
      if (!this.#warned) {
        this.#warned = true;
        try {
          warn(
            `The router's health store did not answer (${error instanceof Error ? error.message : String(error)}): ` +
              "this process routes on its own health until it does, so it may call a member another process saw fail. " +
              "Check the Redis client given as the router's store.",
          );
        } catch {
          // A warning is never worth a call.
        }
      }
      return undefined;
    }
  }
}

/** A raw command on node-redis (`sendCommand([...])`) or ioredis (`call(...)`); a client that throws rejects. */
function sendCommand(store: RouterStore, command: string[]): Promise<unknown> {
  const client = store as {
    sendCommand?: (args: string[]) => Promise<unknown>;
    call?: (...args: string[]) => Promise<unknown>;
  };
  try {
    // ioredis has both, and its sendCommand takes a Command object: its call() takes the words.
    if (typeof client.call === "function") return Promise.resolve(client.call(...command));
    return Promise.resolve(client.sendCommand!(command));
  } catch (error) {
    return Promise.reject(error instanceof Error ? error : new Error(String(error)));
  }
}

/** The store's rows as health, or undefined when they are not what the script returns (a store that answers nonsense). */
function parseRows(rows: unknown, size: number): MemberHealth[] | undefined {
  if (!Array.isArray(rows) || rows.length !== size) return undefined;
  const health: MemberHealth[] = [];
  for (const row of rows as unknown[]) {
    if (!Array.isArray(row) || row.length !== 4) return undefined;
    const [inFlight, failures, latency, restTtl] = row as unknown[];
    const count = (value: unknown) => {
      const number = Number(value === "" ? 0 : value);
      return Number.isFinite(number) ? Math.max(0, number) : 0;
    };
    const latencyMs = latency === "" || latency === null ? undefined : Number(latency);
    health.push({
      inFlight: count(inFlight),
      failures: count(failures),
      latencyMs: latencyMs !== undefined && Number.isFinite(latencyMs) ? latencyMs : undefined,
      restMs: count(restTtl),
    });
  }
  return health;
}
