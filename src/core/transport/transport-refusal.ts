import { ProviderError } from "../errors/provider-error.js";
import { NotAStreamError } from "../../internal/not-a-stream-error.js";
import { redactedExcerpt, redactSecrets } from "../../internal/redact-secrets.js";
import { RefusedRedirectError } from "../../internal/refused-redirect-error.js";
import { ResponseTooLargeError } from "../../internal/response-too-large-error.js";

export interface TransportRefusalContext {
  providerId: string;
  modelId: string;
  /** How messages start: the provider and model, and the server where it helps. */
  where: string;
  /** What to check when the server answered with a web page, in this provider's words. */
  pageHint: string;
  /** Cut out of the body's start before it is quoted. */
  secrets: readonly (string | undefined)[];
}

const searchDepth = 8;

/**
 * The ProviderError for what keelson's own transport refused — a body past `maxResponseBytes`, a
 * stream request answered with something else, a redirect it would not follow — found as the error
 * or in its `cause` chain (an SDK may wrap it). None of a body too large, a web page or a refused
 * redirect is retried: the same request gets the same answer. undefined for any other error.
 */
export function transportRefusal(error: unknown, context: TransportRefusalContext): ProviderError | undefined {
  let found = error;
  for (let depth = 0; depth < searchDepth && found instanceof Error; depth++) {
    if (found instanceof ResponseTooLargeError) return tooLarge(found, error, context);
    if (found instanceof RefusedRedirectError) return refusedRedirect(found, error, context);
    if (found instanceof NotAStreamError) {
      // It becomes the cause, and it quotes what the server sent: never with a credential in it.
      return notAStream(found, redactSecrets(error, context.secrets), context);
    }
    found = (found as { cause?: unknown }).cause;
  }
  return undefined;
}

function tooLarge(refusal: ResponseTooLargeError, cause: unknown, context: TransportRefusalContext): ProviderError {
  return new ProviderError(
    `${context.where}: the response body passed maxResponseBytes (${refusal.limit} bytes): reading stopped after ` +
      `${refusal.bytesRead} bytes. If replies this large are expected, raise maxResponseBytes in the model's options ` +
      "(Infinity for no cap).",
    {
      providerId: context.providerId,
      modelId: context.modelId,
      cause,
      reason: "server",
      code: "response_too_large",
      isRetryable: false,
    },
  );
}

function notAStream(refusal: NotAStreamError, cause: unknown, context: TransportRefusalContext): ProviderError {
  const start = redactedExcerpt(refusal.bodyStart.trim(), context.secrets, 60).replace(
    /… \(\d+ more characters\)$/,
    "…",
  );
  const body = start === "" ? "an empty body" : `starting ${JSON.stringify(start)}`;
  const what = refusal.isHTML ? `an HTML page (${refusal.contentType}, ${body})` : `${refusal.contentType} (${body})`;
  return new ProviderError(
    `${context.where}: the server answered a stream request with ${what}, not an event stream. ${context.pageHint}`,
    {
      providerId: context.providerId,
      modelId: context.modelId,
      cause,
      reason: "server",
      code: "not_a_stream",
      // A web page is a misconfiguration a retry fetches again; another body may be a passing fault.
      isRetryable: !refusal.isHTML,
    },
  );
}

function refusedRedirect(
  refusal: RefusedRedirectError,
  cause: unknown,
  context: TransportRefusalContext,
): ProviderError {
  return new ProviderError(
    `${context.where}: keelson refused ${refusal.what}. The server (or a proxy or login gateway in front of ` +
      "it) answered with a redirect keelson does not follow: check the model's base URL.",
    {
      providerId: context.providerId,
      modelId: context.modelId,
      cause,
      reason: "server",
      code: "refused_redirect",
      isRetryable: false,
    },
  );
}
