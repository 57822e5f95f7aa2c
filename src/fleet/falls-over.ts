import { ProviderError, type ProviderErrorReason } from "../core/errors/provider-error.js";
import { FallbackError } from "./fallback-error.js";

/** What another provider could answer: the failure is this provider's, not the request's (a stall is a `timeout`). */
const fallOverReasons: ReadonlySet<ProviderErrorReason> = new Set(["rate-limit", "server", "network", "timeout"]);

/**
 * Whether a failed call should move on to the next member: a rate limit, a server error, a network
 * failure or a provider timeout (a stalled stream included), or a group of its own whose members
 * all failed so. Never for what any provider would refuse again (an invalid request,
 * authentication, content policy, a tool-call or output error) nor for an abort.
 */
export function fallsOver(error: unknown): error is ProviderError | FallbackError {
  if (FallbackError.isInstance(error)) return error.errors.every(fallsOver);
  return ProviderError.isInstance(error) && fallOverReasons.has(error.reason);
}
