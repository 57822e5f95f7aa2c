import type { APIError } from "openai";
import { abortError } from "../../internal/abort.js";
import { redactSecrets } from "../../internal/redact-secrets.js";
import { transportRefusal } from "../../core/transport/transport-refusal.js";
import { mapOpenAIConnectionError } from "./map-openai-connection-error.js";
import { mapOpenAIStatusError } from "./map-openai-status-error.js";
import { mapOpenAIUnreadableResponse } from "./map-openai-unreadable-response.js";
import { pageHint, secretsOf, whereOf, type OpenAIErrorContext } from "./openai-error-context.js";

/**
 * An `openai` SDK error as a ProviderError (the SDK error is its `cause`), by family: what keelson's
 * transport refused, no answer (a timeout, an unreachable API: map-openai-connection-error.ts), an
 * answer with an error status (map-openai-status-error.ts), and what the SDK lets through from below
 * it (map-openai-unreadable-response.ts). Anything else is returned unchanged. Classes are matched by
 * name as well as by `instanceof`, so a client from another copy of the SDK maps the same.
 */
export function mapOpenAIError(error: unknown, context: OpenAIErrorContext): unknown {
  // The SDK's own abort error is named "Error"; the rest of keelson knows an abort as the platform's AbortError.
  if ((error as { constructor?: { name?: string } } | null)?.constructor?.name === "APIUserAbortError")
    return abortError(undefined);
  const refusal = transportRefusal(error, {
    ...context,
    where: whereOf(context),
    pageHint,
    secrets: secretsOf(context),
  });
  if (refusal) return refusal;
  if (!isSDKError(error)) return mapOpenAIUnreadableResponse(error, context);
  // The cause is a copy of the SDK error without the key (some gateways echo it); the original is never changed.
  const sdkError = redactSecrets(error as APIError, secretsOf(context));
  const options = { providerId: context.providerId, modelId: context.modelId, cause: sdkError };
  return mapOpenAIConnectionError(sdkError, context, options) ?? mapOpenAIStatusError(sdkError, context, options);
}

function isSDKError(error: unknown): boolean {
  const name = (error as { constructor?: { name?: string } } | null)?.constructor?.name ?? "";
  return (
    name.endsWith("Error") && error !== null && typeof error === "object" && "status" in error && "headers" in error
  );
}
