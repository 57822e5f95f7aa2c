/**
 * How long a call may take: a number bounds the whole call (all attempts), as `{ totalMs }` does;
 * `firstChunkMs` and `chunkMs` bound its silences.
 */
export type CallTimeout = number | StallTimeout;

/** A call's timeouts, each in milliseconds; any left out is no bound. */
export interface StallTimeout {
  /** The whole call, every attempt and retry wait included (a `TimeoutError`, as a plain number). @default none */
  totalMs?: number;
  /**
   * How long one attempt may show nothing visible (text, reasoning or a tool-call delta; keep-alives,
   * usage and empty chunks do not count). Past it the attempt fails with a retryable `ProviderError`
   * (reason `timeout`, `code: "stalled"`): retried, and a reason for `withFallbacks` to move on.
   * For `create`, whose reply arrives whole, it bounds each attempt's wait for its reply (providers
   * answer a request that does not stream with headers and body together, when the reply is ready).
   * @default none
   */
  firstChunkMs?: number;
  /**
   * How long a stream may stay silent (nothing visible) once it showed something: past it the call
   * rejects with a `ProviderError` (`code: "stalled"`, not retried) whose `partialOutput` holds what arrived.
   * @default none
   */
  chunkMs?: number;
}

/** A timeout as keelson reads it: each bound a positive number of milliseconds, or absent. */
export interface ReadTimeout {
  totalMs: number | undefined;
  firstChunkMs: number | undefined;
  chunkMs: number | undefined;
}

const noBounds: ReadTimeout = { totalMs: undefined, firstChunkMs: undefined, chunkMs: undefined };
const keys = new Set(["totalMs", "firstChunkMs", "chunkMs"]);

/**
 * A timeout checked: a positive number (`Infinity` is no bound), or an object of the three bounds.
 * `where` names it in the error (`input.timeout`, the `timeout` option).
 */
export function readTimeout(timeout: unknown, where: string): ReadTimeout {
  if (timeout === undefined) return noBounds;
  if (typeof timeout === "number") return { ...noBounds, totalMs: checkBound(timeout, where) };
  if (timeout === null || typeof timeout !== "object" || Array.isArray(timeout)) {
    throw new TypeError(
      `${where} must be a positive number of milliseconds or { totalMs?, firstChunkMs?, chunkMs? }, got ${describe(timeout)}.`,
    );
  }
  for (const key of Object.keys(timeout)) {
    if (!keys.has(key))
      throw new TypeError(
        `${where} has an unknown field ${JSON.stringify(key)}: use totalMs, firstChunkMs or chunkMs.`,
      );
  }
  const { totalMs, firstChunkMs, chunkMs } = timeout as Record<string, unknown>;
  return {
    totalMs: totalMs === undefined ? undefined : checkBound(totalMs, `${where}.totalMs`),
    firstChunkMs: firstChunkMs === undefined ? undefined : checkBound(firstChunkMs, `${where}.firstChunkMs`),
    chunkMs: chunkMs === undefined ? undefined : checkBound(chunkMs, `${where}.chunkMs`),
  };
}

/** A call's timeout: its own, else the model's (a call's own replaces the model's whole). */
export function callTimeout(own: CallTimeout | undefined, model: CallTimeout | undefined): ReadTimeout {
  return own === undefined ? readTimeout(model, "the model's timeout") : readTimeout(own, "input.timeout");
}

function checkBound(value: unknown, where: string): number {
  if (typeof value !== "number" || !(value > 0)) {
    throw new TypeError(`${where} must be a positive number of milliseconds, got ${describe(value)}.`);
  }
  return value;
}

function describe(value: unknown): string {
  if (typeof value === "number" || value === null || value === undefined) return String(value);
  if (typeof value === "string") return JSON.stringify(value.slice(0, 40));
  return Array.isArray(value) ? "an array" : typeof value;
}
