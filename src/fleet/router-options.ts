/**
 * How a router picks the member a call goes to (the others, in the same order, take it when it
 * fails with an error another member could answer):
 * - `"ordered"`: the first member that is not resting (`withFallbacks`).
 * - `"round-robin"`: each call starts one member further along.
 * - `"random"`: a member at random.
 * - `"least-busy"`: the member with the fewest calls in flight.
 * - `"lowest-latency"`: the member with the lowest moving average of its answered calls' duration
 *   (a member not measured yet is tried first, so that each one gets measured).
 * - `"fewest-failures"`: the member that failed the fewest calls.
 */
export type RouterStrategy = "ordered" | "round-robin" | "random" | "least-busy" | "lowest-latency" | "fewest-failures";

/** The strategies a router knows, for its options check. */
export const routerStrategies: readonly RouterStrategy[] = [
  "ordered",
  "round-robin",
  "random",
  "least-busy",
  "lowest-latency",
  "fewest-failures",
];

/**
 * A Redis client the group's health is kept in: node-redis (`createClient()` from `redis` or
 * `@redis/client`, v4 or later) or ioredis, connected by the caller (keelson never opens or closes
 * it) — the same client a fleet gives `rateLimit.store`.
 */
export type RouterStore = object;

/** Options of `createRouter`. */
export interface RouterOptions {
  /** Which member a call goes to first. @default "ordered" */
  strategy?: RouterStrategy;
  /**
   * How long a member that failed (with an error another member could answer) rests, in
   * milliseconds: the calls after go to the others first; a longer `Retry-After` from its provider
   * wins. A resting member is still tried, last, when every other one fails too.
   * @default 30000
   */
  cooldownMs?: number;
  /**
   * A Redis client: the members' health (calls in flight, latency, failures, rest) is shared by
   * every process that builds the same group on it. A store that fails or does not answer within
   * `storeTimeoutMs` never fails or holds a call: the process uses its own health until the store
   * answers again (one `warning` says so). @default none (per router)
   */
  store?: RouterStore;
  /**
   * The name the group's health is kept under in the store. @default derived from the members'
   * providers and models, in order (two processes building the same group share it)
   */
  name?: string;
  /** How long one operation on the store may take before the process uses its own health. @default 250 */
  storeTimeoutMs?: number;
}

/** Checks the options as the router is built: a clear TypeError naming what is wrong. */
export function checkRouterOptions(options: RouterOptions, caller: string): void {
  if (options === null || typeof options !== "object") {
    throw new TypeError(
      `${caller} options must be an object such as { strategy: "round-robin" }, got ${String(options)}.`,
    );
  }
  const { strategy, cooldownMs, store, name, storeTimeoutMs } = options;
  if (strategy !== undefined && !routerStrategies.includes(strategy)) {
    throw new TypeError(
      `strategy must be one of ${routerStrategies.map((known) => `"${known}"`).join(", ")}, got ${JSON.stringify(strategy) ?? String(strategy)}.`,
    );
  }
  if (cooldownMs !== undefined && !(typeof cooldownMs === "number" && cooldownMs >= 0 && cooldownMs !== Infinity)) {
    throw new TypeError(`cooldownMs must be a non-negative number of milliseconds, got ${String(cooldownMs)}.`);
  }
  if (storeTimeoutMs !== undefined && !(typeof storeTimeoutMs === "number" && storeTimeoutMs > 0)) {
    throw new TypeError(`storeTimeoutMs must be a positive number of milliseconds, got ${String(storeTimeoutMs)}.`);
  }
  if (name !== undefined && (typeof name !== "string" || name === "")) {
    throw new TypeError(`name must be a non-empty string, got ${String(name)}.`);
  }
  if (store !== undefined && !isRedisClient(store)) {
    throw new TypeError(
      "store must be a connected Redis client (node-redis createClient() or ioredis), e.g. { store: redisClient }.",
    );
  }
}

/** node-redis (`sendCommand`) or ioredis (`call`). */
function isRedisClient(store: unknown): boolean {
  const client = store as { sendCommand?: unknown; call?: unknown } | null;
  return (
    typeof client === "object" &&
    client !== null &&
    (typeof client.sendCommand === "function" || typeof client.call === "function")
  );
}
