import { fetchPatienceMs } from "./abort.js";

/** undici's codes for a request given up on by its transport (300 s each, as Node's fetch does), and what it was waiting for. */
const fetchLimits: Readonly<Record<string, string>> = {
  UND_ERR_HEADERS_TIMEOUT: "the response",
  UND_ERR_BODY_TIMEOUT: "the next part of the response",
};

/**
 * Whether a request ended because its transport (Node's fetch, undici) stopped waiting — 300 s for the headers (a
 * non-streamed generation sends them when it is done) or between two body chunks — rather than by
 * the call's own timeout or signal: the undici code found down the error's causes, and what fetch
 * was waiting for. Requests of calls whose timeout outlasts those limits never get here (they go
 * through the long-call dispatcher), so this is a call without a timeout that took too long.
 */
export function fetchGaveUp(error: unknown): { code: string; waitingFor: string } | undefined {
  let current: unknown = error;
  for (let depth = 0; depth < 8 && current !== null && typeof current === "object"; depth++) {
    const code = (current as { code?: unknown }).code;
    if (typeof code === "string" && Object.hasOwn(fetchLimits, code)) return { code, waitingFor: fetchLimits[code]! };
    current = (current as { cause?: unknown }).cause;
  }
  return undefined;
}

/** What the caller is told: why the call ended, what to do, and why it was not retried. */
export function fetchGaveUpAdvice(waitingFor: string): string {
  return (
    `The request stopped waiting for ${waitingFor} after ${fetchPatienceMs / 1000} s (Node's fetch's limit, which keelson's requests keep). A call that may take longer needs a timeout of its own: ` +
    "give it one, e.g. { timeout: 20 * 60_000 }, and keelson sends it without that limit. " +
    "(Not retried: the same generation would take as long again.)"
  );
}
