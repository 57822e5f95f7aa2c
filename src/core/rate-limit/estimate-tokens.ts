import type { ProviderInput } from "../input.js";

/** Keys whose values are binary data (images, files) a provider does not count as text tokens. */
const binaryKeys = new Set(["image", "data"]);

/**
 * A request's tokens, estimated before it is sent: its messages and tools at ~4 characters a
 * token, plus the output it may spend (`maxTokens`). Settled from the reported usage after.
 */
export function estimateTokens(request: ProviderInput): number {
  const text = JSON.stringify(
    [request.messages, request.tools ?? null, request.responseFormat ?? null],
    (key, value) => (binaryKeys.has(key) && typeof value === "string" && value.length > 256 ? "" : (value as unknown)),
  );
  return Math.ceil(text.length / 4) + (request.parameters?.maxTokens ?? 0);
}
