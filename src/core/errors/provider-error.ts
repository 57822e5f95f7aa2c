import type { ProviderOutput } from "../output.js";
import type { ParameterName } from "../parameters/parameter-name.js";
import type { ChatModelErrorOptions } from "./chat-model-error.js";
import { ChatModelError } from "./chat-model-error.js";

const marker = "keelson.error.ProviderError";
const symbol = Symbol.for(marker);

export type ProviderErrorReason =
  | "rate-limit"
  | "authentication"
  | "content-policy"
  | "invalid-request"
  | "not-found"
  | "network"
  | "timeout"
  | "server";

/**
 * The part of a request the provider refused with a 400, in keelson's terms, so that keelson learns
 * it (once per endpoint and model, for the process) and sends the call again without it: a
 * tool_choice value, the JSON-schema response format, a common parameter, or a field keelson adds
 * (`parallel_tool_calls`, the reasoning of earlier tool-call turns). An adapter only names it.
 */
export type RejectedParameter =
  | {
      name: "tool_choice";
      /** The refused value, in keelson's terms. */
      value: "auto" | "none" | "required" | "single";
    }
  | { name: "response_format"; value: "json-schema" }
  | { name: "parameter"; value: ParameterName }
  | { name: "parallel_tool_calls" | "reasoning"; value?: undefined }
  /** A JSON Schema keyword (`pattern`, `additionalProperties`, …) in a tool's or response format's schema. */
  | { name: "schema_keyword"; value: string };

export interface ProviderErrorOptions extends ChatModelErrorOptions {
  statusCode?: number | undefined;
  reason?: ProviderErrorReason | undefined;
  /** Overrides what the status code implies (for example a 429 `insufficient_quota` is not retryable). */
  isRetryable?: boolean | undefined;
  /** How long the provider asked to wait (from `Retry-After` / `retry-after-ms`), in milliseconds. */
  retryAfterMs?: number | undefined;
  /** The provider's error code (`model_not_found`, `ThrottlingException`, …). */
  code?: string | undefined;
  rejectedParameter?: RejectedParameter | undefined;
}

/** A failed request to the provider. The SDK's own error is the `cause`. */
export class ProviderError extends ChatModelError {
  private readonly [symbol] = true;
  readonly statusCode: number | undefined;
  readonly reason: ProviderErrorReason;
  readonly isRetryable: boolean;
  readonly retryAfterMs: number | undefined;
  readonly code: string | undefined;
  readonly rejectedParameter: RejectedParameter | undefined;
  /**
   * What a stream had delivered when it failed (text, reasoning, tool-call fragments), set only when
   * chunks had already reached the caller. Such a stream is never retried silently: the caller saw
   * tokens, so keelson raises this error instead, and retrying is the caller's choice. Its
   * `finishReason` is `"error"` unless the provider had sent its own before the stream broke.
   */
  declare partialOutput?: ProviderOutput;
  /**
   * How many requests were made for this error when transport retries ran (the message says so
   * too): 1 when the first failure was not retried. Unset on an error raised outside a request.
   */
  declare attempts?: number;

  constructor(message: string, options: ProviderErrorOptions = {}) {
    super(boundedMessage(message), options);
    this.name = "ProviderError";
    this.statusCode = options.statusCode;
    this.reason = options.reason ?? reasonFromStatus(options.statusCode);
    this.isRetryable = options.isRetryable ?? isRetryableReason(this.reason, options.statusCode);
    this.retryAfterMs = options.retryAfterMs;
    this.code = options.code;
    this.rejectedParameter = options.rejectedParameter;
  }

  static override isInstance(error: unknown): error is ProviderError {
    return ChatModelError.hasMarker(error, marker);
  }
}

/**
 * At most `maxMessageLength` characters: whatever an adapter quotes from a server (a proxy's 5 MB
 * error page), a message stays a message. Adapters cut what they quote first; this is the bound
 * for every one of them.
 */
export const maxMessageLength = 8_000;

function boundedMessage(message: string): string {
  const text = typeof message === "string" ? message : String(message);
  if (text.length <= maxMessageLength) return text;
  return `${text.slice(0, maxMessageLength)}… (${text.length - maxMessageLength} more characters)`;
}

export function reasonFromStatus(statusCode: number | undefined): ProviderErrorReason {
  if (statusCode === undefined) return "network";
  if (statusCode === 401 || statusCode === 403) return "authentication";
  if (statusCode === 404) return "not-found";
  if (statusCode === 408) return "timeout";
  if (statusCode === 429) return "rate-limit";
  if (statusCode >= 500) return "server";
  return "invalid-request";
}

function isRetryableReason(reason: ProviderErrorReason, statusCode: number | undefined): boolean {
  if (statusCode === 408 || statusCode === 409 || statusCode === 429) return true;
  if (statusCode !== undefined && statusCode >= 500) return true;
  return reason === "network" || reason === "timeout" || reason === "rate-limit" || reason === "server";
}
