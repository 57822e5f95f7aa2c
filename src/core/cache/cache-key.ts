import { lazyRequire } from "../loading/lazy-require.js";
import { stableStringify } from "../../internal/stable-stringify.js";
import type { PreparedCall } from "../call/index.js";

// node:crypto loads on the first cached call, not when keelson is imported.
const loadCrypto = lazyRequire<typeof import("node:crypto")>("node:crypto", "cache keys");

export interface CacheScope {
  providerId: string;
  modelId: string;
  /** Where requests go (base URL, host, region, deployment): two endpoints never share answers. */
  endpoint: string;
}

/**
 * A stable hash of everything that shapes the answer: provider, model, endpoint and the normalised
 * call (messages, tools as schemas, tool choice, response format, parameters, provider options).
 * Never the signal, never credentials or headers.
 */
export function cacheKey(scope: CacheScope, call: PreparedCall): string {
  const material = stableStringify({
    v: 1,
    provider: scope.providerId,
    model: scope.modelId,
    endpoint: scope.endpoint,
    messages: call.messages,
    instructions: call.instructions,
    tools: call.plan.tools ?? [],
    toolChoice: call.plan.toolChoice ?? null,
    responseFormat: call.plan.responseFormat ?? call.responseFormat ?? null,
    choice: call.choice,
    parallel: call.parallel,
    fallbackTool: call.rules.fallbackTool ?? null,
    parameters: call.parameters,
    providerOptions: call.input.providerOptions ?? null,
  });
  return `keelson:${loadCrypto().createHash("sha256").update(material).digest("hex")}`;
}
