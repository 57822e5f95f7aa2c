import { isAbortError } from "../../internal/abort.js";
import { ProviderError } from "../../core/errors/provider-error.js";
import type { ProviderErrorReason, RejectedParameter } from "../../core/errors/provider-error.js";
import { parseRetryAfter } from "../../core/retry/parse-retry-after.js";
import { maxServerTextLength, redactedExcerpt, redactSecrets, redactText } from "../../internal/redact-secrets.js";
import { transportRefusal } from "../../core/transport/transport-refusal.js";

interface AWSErrorShape {
  name?: string;
  message?: string;
  code?: string;
  $fault?: "client" | "server";
  $metadata?: { httpStatusCode?: number; requestId?: string };
  $response?: { statusCode?: number; headers?: Record<string, string | undefined>; body?: unknown };
}

/** How each AWS error name reads in keelson; the status code decides for the rest. */
const byName: Record<string, { reason: ProviderErrorReason; isRetryable: boolean; statusCode?: number }> = {
  ThrottlingException: { reason: "rate-limit", isRetryable: true, statusCode: 429 },
  ServiceQuotaExceededException: { reason: "rate-limit", isRetryable: false },
  ValidationException: { reason: "invalid-request", isRetryable: false, statusCode: 400 },
  AccessDeniedException: { reason: "authentication", isRetryable: false, statusCode: 403 },
  UnrecognizedClientException: { reason: "authentication", isRetryable: false },
  InvalidSignatureException: { reason: "authentication", isRetryable: false },
  ExpiredTokenException: { reason: "authentication", isRetryable: false },
  CredentialsProviderError: { reason: "authentication", isRetryable: false },
  ResourceNotFoundException: { reason: "not-found", isRetryable: false, statusCode: 404 },
  ModelNotReadyException: { reason: "server", isRetryable: true },
  ServiceUnavailableException: { reason: "server", isRetryable: true, statusCode: 503 },
  InternalServerException: { reason: "server", isRetryable: true, statusCode: 500 },
  ModelStreamErrorException: { reason: "server", isRetryable: true },
  ModelTimeoutException: { reason: "timeout", isRetryable: true, statusCode: 408 },
  ModelErrorException: { reason: "server", isRetryable: false },
};

const hints: Partial<Record<ProviderErrorReason, string>> = {
  "rate-limit": "Slow down, or ask AWS for a higher quota.",
  authentication: "Check the AWS credentials and that the IAM identity may call bedrock:InvokeModel on this model.",
  "not-found": "Check the model id and the region, and that model access is granted in the Bedrock console.",
  "invalid-request": "The request was refused as sent; see the message.",
};

const networkCodes = new Set([
  "ECONNREFUSED",
  "ECONNRESET",
  "ETIMEDOUT",
  "EPIPE",
  "ENOTFOUND",
  "EAI_AGAIN",
  "ECONNABORTED",
]);

export interface BedrockErrorContext {
  modelId: string;
  /** The `toolConfig.toolChoice` member the request carried (`any`, `tool`, `auto`), if any. */
  sentToolChoice?: string | undefined;
  /** Cut out of the message in case the service ever echoes one. */
  secrets?: readonly string[];
}

/**
 * An AWS SDK error → ProviderError (the SDK error as `cause`), read by its AWS name. Aborts and
 * errors that are not the provider's (a bad argument) pass through unchanged. A ValidationException
 * that refuses the toolChoice the request carried names it as `rejectedParameter`, for the ladder.
 */
export function mapBedrockError(error: unknown, context: BedrockErrorContext): unknown {
  const { modelId, secrets = [] } = context;
  // The SDK's own timeouts (a stream or session idle too long) are Errors named TimeoutError: the
  // provider's silence, not an abort the caller made (the SDK names those AbortError).
  const sdkTimeout = error instanceof Error && error.name === "TimeoutError" && !(error instanceof DOMException);
  if (!(error instanceof Error) || (isAbortError(error) && !sdkTimeout)) return error;
  const refusal = transportRefusal(error, {
    providerId: "bedrock",
    modelId,
    where: `bedrock ${modelId}`,
    pageHint:
      "Check that endpoint points at the Bedrock runtime (bedrock-runtime.<region>.amazonaws.com) and not at a proxy's or a login page.",
    secrets,
  });
  if (refusal) return refusal;
  // The SDK error becomes the cause: cut the secrets out of all of it, should the service echo one,
  // and drop its spent response stream, which holds the signed request headers (the session token).
  // (On a copy: the error as thrown is never changed, a frozen one included.)
  const aws = withoutBody(redactSecrets(error, secrets) as Error & AWSErrorShape);
  const name = aws.name;
  const known = sdkTimeout ? { reason: "timeout" as const, isRetryable: true } : byName[name];
  const statusCode = aws.$metadata?.httpStatusCode ?? aws.$response?.statusCode ?? known?.statusCode;
  const network = aws.code !== undefined && (networkCodes.has(aws.code) || aws.code.startsWith("ERR_HTTP2"));
  if (!known && statusCode === undefined && !network) return aws;
  const reason: ProviderErrorReason | undefined = network ? "network" : known?.reason;
  const rejectedParameter =
    name === "ValidationException" ? rejectedToolChoice(aws.message, context.sentToolChoice) : undefined;
  const summary = [name, statusCode === undefined ? undefined : `HTTP ${statusCode}`].filter(Boolean).join(", ");
  const said = redactedExcerpt(
    typeof aws.message === "string" && aws.message !== "" ? aws.message : "request failed",
    secrets,
    maxServerTextLength,
  );
  let message = `bedrock ${modelId}: ${said} (${summary}).`;
  const hint = reason === undefined ? undefined : hints[reason];
  if (hint) message += ` ${hint}`;
  return new ProviderError(redactText(message, secrets), {
    statusCode,
    reason,
    isRetryable: network ? true : known?.isRetryable,
    retryAfterMs: parseRetryAfter(aws.$response?.headers),
    code: name === "Error" ? aws.code : name,
    rejectedParameter,
    providerId: "bedrock",
    modelId,
    cause: aws,
  });
}

/** "This model doesn't support the toolConfig.toolChoice.any field. Remove … and try again." */
function rejectedToolChoice(message: string | undefined, sent: string | undefined): RejectedParameter | undefined {
  const field = /toolChoice\.(any|tool|auto)\b/.exec(message ?? "")?.[1];
  if (!field || field !== sent || !/support/i.test(message ?? "")) return undefined;
  return { name: "tool_choice", value: field === "any" ? "required" : field === "tool" ? "single" : "auto" };
}

/**
 * The error without its spent response stream (which holds the signed request headers, the session
 * token among them): a shallow copy with a copy of `$response`, for the error as thrown is not ours to change.
 */
function withoutBody(error: Error & AWSErrorShape): Error & AWSErrorShape {
  const response = error.$response;
  if (!response || typeof response !== "object" || !("body" in response) || response.body === undefined) return error;
  const copy = Object.create(Object.getPrototypeOf(error) as object) as Error & AWSErrorShape;
  const { $response: _spent, ...descriptors } = Object.getOwnPropertyDescriptors(error);
  Object.defineProperties(copy, descriptors);
  Object.defineProperty(copy, "$response", {
    value: Object.assign(Object.create(Object.getPrototypeOf(response) as object) as object, response, {
      body: undefined,
    }),
    writable: true,
    configurable: true,
    enumerable: true,
  });
  return copy;
}
