import { maxTimerMs } from "../../internal/abort.js";

/** The `cacheTimeoutMs` option, checked: a positive number of milliseconds a timer can hold, or Infinity. */
export function checkCacheTimeout(timeoutMs: number): number {
  if (timeoutMs === Infinity || (typeof timeoutMs === "number" && timeoutMs > 0 && timeoutMs <= maxTimerMs))
    return timeoutMs;
  throw new TypeError(
    `cacheTimeoutMs must be a positive number of milliseconds (at most ${maxTimerMs}) or Infinity, got ${String(timeoutMs)}.`,
  );
}
