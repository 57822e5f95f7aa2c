import { ProviderError } from "../../core/errors/provider-error.js";
import { fetchGaveUp } from "../../internal/fetch-gave-up.js";
import { maxServerTextLength, redactedExcerpt, redactSecrets } from "../../internal/redact-secrets.js";
import { fetchGaveUpError } from "./map-openai-connection-error.js";
import { pageHint, secretsOf, whereOf, type OpenAIErrorContext } from "./openai-error-context.js";

/**
 * What the SDK lets through from below it, as a ProviderError: a body that is not JSON
 * (`SyntaxError`), fetch giving up, a connection lost while the body was read (fetch's
 * `TypeError: terminated`), or a ProviderError raised under the SDK. Anything else is returned unchanged.
 */
export function mapOpenAIUnreadableResponse(error: unknown, context: OpenAIErrorContext): unknown {
  // A ProviderError raised under the SDK (Azure's Entra ID token provider) comes back inside the SDK's own error.
  const inner = (error as { cause?: unknown } | null)?.cause;
  if (ProviderError.isInstance(inner)) return inner;
  // A SyntaxError quotes the body it could not parse: the cause must not carry a key either.
  error = redactSecrets(error, secretsOf(context));
  const options = { providerId: context.providerId, modelId: context.modelId, cause: error };
  const where = whereOf(context);
  if (error instanceof SyntaxError) {
    // An HTML page (a proxy's, a login page) where JSON belongs: a retry gets the same page.
    const page = /^Unexpected token '<'/.test(error.message);
    return new ProviderError(
      `${where}: the API sent a body that is not valid JSON (${redactedExcerpt(error.message, secretsOf(context), maxServerTextLength)}).` +
        (page ? ` It is an HTML page. ${pageHint}` : ""),
      { ...options, reason: "server", isRetryable: !page },
    );
  }
  const gaveUp = fetchGaveUp(error);
  if (gaveUp) return fetchGaveUpError(where, gaveUp, options);
  if (error instanceof TypeError && error.message === "terminated") {
    return new ProviderError(`${where}: the connection was lost while the response was being read.`, {
      ...options,
      reason: "network",
    });
  }
  if (error instanceof TypeError && error.cause === undefined && error.message !== "fetch failed") {
    // The SDK read the 200 and tripped over its shape (the Responses API's `output` not a list): no network fault.
    return new ProviderError(
      `${where}: the SDK could not read the reply (${redactedExcerpt(error.message, secretsOf(context), 200)}). ` +
        "The server (or a gateway before it) sent a reply in a shape keelson cannot read.",
      { ...options, reason: "server", code: "unreadable_reply" },
    );
  }
  return error;
}
