import type { SchemaForm } from "./schema/project-schema.js";
import type { CallTimeout } from "./budgets/call-timeout.js";
import type { PromptCacheMode } from "./prompt-cache/prompt-cache-mode.js";
import type { ModelProfile } from "./profiles/model-profile.js";
import type { ChatModelCache } from "./cache/chat-model-cache.js";
import type { ChatModelParameters } from "./input.js";
import type { ChatModelMiddleware } from "./middleware/chat-model-middleware.js";
import type { ParameterName } from "./parameters/parameter-name.js";
import type { RateLimitOptions } from "./rate-limit/rate-limit-options.js";
import type { ResolvedRetryOptions } from "./retry/retry-options.js";
import type { ToolChoiceMode } from "./tool-choice/tool-choice-mode.js";

/**
 * A chat model as its calls read it: its settings, what was learned from the provider's refusals
 * already applied. `ChatModel` is one; it is the one view of a model the pipeline takes (the
 * ladder, prepare, the cache, the rate limit read the fields they need of it).
 */
export interface ModelSettings {
  readonly providerId: string;
  readonly modelId: string;
  /** The form of JSON Schema the adapter's provider accepts (an adapter's declaration). @default the schema as it is */
  readonly schemaForm?: SchemaForm | undefined;
  readonly toolChoiceSupport: ReadonlySet<ToolChoiceMode>;
  readonly supportsToolCalling: boolean;
  readonly supportsStructuredOutput: boolean;
  readonly supportsTopLevelUnion: boolean;
  /** Tools and a JSON-schema response format go in one request (the model picks a call or the answer). */
  readonly supportsResponseFormatWithTools: boolean;
  readonly strictResponseFormat: boolean;
  readonly toolCallFallbackViaResponseFormat: boolean;
  readonly allowParallelToolCalls: boolean;
  readonly ignoreParallelToolCalls: boolean;
  readonly fixInvalidToolCalls: boolean;
  readonly recoverTextToolCallsOnAuto: boolean;
  readonly retryOnEmptyResponse: boolean;
  readonly retry: ResolvedRetryOptions;
  readonly maxRepairAttempts: number;
  readonly parameters: ChatModelParameters | undefined;
  readonly unsupportedParameters: ReadonlySet<ParameterName>;
  readonly strictParameters: boolean;
  readonly cache: ChatModelCache;
  readonly cacheTtlMs: number | undefined;
  readonly cacheTimeoutMs: number;
  readonly rateLimit: RateLimitOptions | undefined;
  readonly middleware: readonly ChatModelMiddleware[];
  /** Whether the provider takes images and files inside a tool result (else the adapter moves them to a user message, and core warns). */
  readonly toolResultMedia: boolean;
  /** Every call's timeout unless the call sets its own. */
  readonly timeout: CallTimeout | undefined;
  /** Prompt-cache breakpoints of every call that does not set its own. @default "off" */
  readonly promptCache?: PromptCacheMode | undefined;
  /** The model's limits and prices (its output's `usage.costUsd` is priced from them). */
  readonly profile: ModelProfile;
}
