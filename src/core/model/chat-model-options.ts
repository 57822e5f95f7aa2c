import type { ModelPricing } from "../profiles/model-pricing.js";
import type { CallTimeout } from "../budgets/call-timeout.js";
import type { PromptCacheMode } from "../prompt-cache/prompt-cache-mode.js";
import type { ChatModelMiddleware } from "../middleware/chat-model-middleware.js";
import type { ChatModelCache } from "../cache/chat-model-cache.js";
import type { ChatModelParameters } from "../input.js";
import type { ParameterName } from "../parameters/parameter-name.js";
import type { RetryOptions } from "../retry/retry-options.js";
import type { ToolChoiceMode } from "../tool-choice/tool-choice-mode.js";
import type { RateLimitOptions } from "../rate-limit/rate-limit-options.js";

/** Options every model takes; each adapter adds its own. */
export interface ChatModelOptions {
  /** The tool_choice values the provider honours. @default the adapter's profile */
  toolChoiceSupport?: Iterable<ToolChoiceMode> | undefined;
  /**
   * When the provider cannot force a tool call, compile the tools into one JSON schema and force it
   * through structured output (or the prompt). `false` raises UnsupportedFeatureError instead.
   * @default true
   */
  toolCallFallbackViaResponseFormat?: boolean | undefined;
  /** Whether the provider takes tools at all. @default the adapter's profile (usually true) */
  supportsToolCalling?: boolean | undefined;
  /** Whether the provider takes a JSON-schema response format. @default the adapter's profile */
  supportsStructuredOutput?: boolean | undefined;
  /** Whether a JSON-schema response format may have a union (anyOf/array) at its root. @default the adapter's profile */
  supportsTopLevelUnion?: boolean | undefined;
  /**
   * Whether the provider takes tools and a JSON-schema response format in one request, the model
   * choosing between a tool call and the answer (OpenAI). Where it cannot, a call with both sends the
   * answer as a synthetic tool beside the others, or as one more variant of the tool union.
   * @default the adapter's profile (false)
   */
  supportsResponseFormatWithTools?: boolean | undefined;
  /** Send response-format schemas in strict form (all properties required, no extra keys). @default the adapter's profile */
  strictResponseFormat?: boolean | undefined;
  /** Allow several tool calls in one reply. @default false */
  allowParallelToolCalls?: boolean | undefined;
  /** When parallel calls are not allowed and the model makes several, keep the first instead of re-asking. @default false */
  ignoreParallelToolCalls?: boolean | undefined;
  /**
   * Repair broken tool calls: arguments that are broken, fenced or doubly encoded JSON, and tool
   * calls written as text when a call was required. `false` accepts strict JSON arguments only and
   * re-asks for anything else (missing ids are still filled; replies to the tool-union schema are
   * still read leniently). @default true
   */
  fixInvalidToolCalls?: boolean | undefined;
  /**
   * Under toolChoice "auto", read a reply that is nothing but tool calls written as text
   * (`{"name": …, "arguments": …}`, `<tool_call>…</tool_call>`, `[get_weather(city="Paris")]`, …), each
   * to a tool of the call with valid arguments, as those calls (`meta.repairs` lists `text-tool-call`);
   * any other text stays text. A stream holds back text that opens such a form until it is decided.
   * `false` leaves every reply under "auto" as text. @default true
   */
  recoverTextToolCallsOnAuto?: boolean | undefined;
  /** Re-ask when the reply is empty (then EmptyResponseError); `false` returns the empty reply as it is. @default true */
  retryOnEmptyResponse?: boolean | undefined;
  /** Transport retries. @default { maxRetries: 2 } */
  retry?: RetryOptions | undefined;
  /**
   * Transport retries after the first request: the same as `retry.maxRetries`, under the name a
   * call (`create({ maxRetries })`), `runTools` and the provider SDKs use. Give it once: both, when
   * they differ, are a TypeError. @default 2
   */
  maxRetries?: number | undefined;
  /** Re-asks for unusable output (invalid tool call, empty reply, schema mismatch). @default 2 */
  maxRepairAttempts?: number | undefined;
  /** Where answers are kept. @default new NullCache() */
  cache?: ChatModelCache | undefined;
  /** Time to live of cached answers, in milliseconds. @default the cache's own */
  cacheTtlMs?: number | undefined;
  /**
   * How long a read from the cache is waited for, in milliseconds: past it the call goes on to the
   * provider as on a miss, with a `warning` (code `cache-error`). A write is never waited for; one
   * not settled after this long is reported with a `warning` too. `Infinity` waits for a read as long
   * as the call's signal and `timeout` let it. @default 1000
   */
  cacheTimeoutMs?: number | undefined;
  /** Default parameters of every call; a call's own parameters win. @default none (the provider's own defaults) */
  parameters?: ChatModelParameters | undefined;
  /**
   * The parameters this provider and model have no field for: a call that sets one has it dropped,
   * with one `warning` event (code `unsupported-parameter`) per process, model and parameter.
   * @default the adapter's profile
   */
  unsupportedParameters?: Iterable<ParameterName> | undefined;
  /**
   * Make a parameter the model does not support (see `unsupportedParameters`) an
   * `UnsupportedFeatureError` before any request, instead of dropping it with a warning.
   * @default false
   */
  strictParameters?: boolean | undefined;
  /**
   * Behaviour composed around each request to the provider (an audit log, a guardrail, a mock, input
   * rewriting), the first listed outermost: see `ChatModelMiddleware`. It runs once per request (each
   * retry and re-ask included), after the tool_choice ladder and below the cache. @default []
   */
  middleware?: readonly ChatModelMiddleware[] | undefined;
  /**
   * Holds each request before it is sent until the budget of this endpoint and model allows it
   * (abortable while held, and counted in the call's `timeout`); with a Redis client as `store`,
   * every process shares the budget. @default none (no limit)
   */
  rateLimit?: RateLimitOptions | undefined;
  /**
   * The most bytes of one response body a request reads, counted decoded (after gzip) and over a
   * whole stream: past it the call fails with a `ProviderError` (`code: "response_too_large"`, not
   * retried, naming the cap and the bytes read) and the rest is never read. `Infinity` for no cap.
   * Applies to the clients keelson builds, a custom Ollama `fetch` included; a caller's own
   * `client` is used as it is, uncapped. @default 67108864 (64 MiB)
   */
  maxResponseBytes?: number | undefined;
  /**
   * Every call's timeout, unless the call sets its own: a number bounds the whole call, an object
   * also bounds its silences (`firstChunkMs`, `chunkMs`; see `StallTimeout`). @default none
   */
  timeout?: CallTimeout | undefined;
  /** Prompt-cache breakpoints on every call that does not set its own (see `PromptCacheMode`). @default "off" */
  promptCache?: PromptCacheMode | undefined;
  /** Input and output tokens the model takes in one request (`model.profile.contextWindow`). @default keelson's table, else unknown */
  contextWindow?: number | undefined;
  /** The most tokens one reply may have (`model.profile.maxOutputTokens`). @default keelson's table, else unknown */
  maxOutputTokens?: number | undefined;
  /** What the model's tokens cost, in USD per million (`model.profile.pricing`; prices `usage.costUsd`). @default keelson's table, else unknown */
  pricing?: ModelPricing | undefined;
}

/** What an adapter declares about its provider; constructor options override each field. */
export interface ChatModelProfile {
  /** The tool_choice values the provider honours. */
  toolChoiceSupport: Iterable<ToolChoiceMode>;
  /** Whether the provider takes tools at all. @default true */
  supportsToolCalling?: boolean;
  /** Whether the provider takes a JSON-schema response format. */
  supportsStructuredOutput: boolean;
  /** Whether a response-format schema may have a union at its root. */
  supportsTopLevelUnion: boolean;
  /** Whether tools and a JSON-schema response format can go in one request. @default false */
  supportsResponseFormatWithTools?: boolean;
  /** Send response-format schemas in strict form. @default false */
  strictResponseFormat?: boolean;
  /** The parameters the adapter does not send for this model (core warns about them, or refuses them). @default none */
  unsupportedParameters?: Iterable<ParameterName>;
  /**
   * Whether the provider takes images and files inside a tool result. When not, the adapter sends them
   * in a user message after the tool message and core warns (`tool-result-media`). @default true
   */
  toolResultMedia?: boolean;
}
