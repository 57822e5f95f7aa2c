import { checkPricing } from "../profiles/model-pricing.js";
import { checkTokenCount, modelProfile, type ModelProfile } from "../profiles/model-profile.js";
import { readTimeout, type CallTimeout } from "../budgets/call-timeout.js";
import { readPromptCacheMode, type PromptCacheMode } from "../prompt-cache/prompt-cache-mode.js";
import { checkCacheTimeout } from "../cache/guarded-store.js";
import type { ChatModelCache } from "../cache/chat-model-cache.js";
import { NullCache } from "../cache/null-cache.js";
import { learnedFor, type LearnedCapabilities } from "../capabilities/learned-capabilities.js";
import type { ChatModelParameters } from "../input.js";
import type { ParameterName } from "../parameters/parameter-name.js";
import { toParameterSet } from "../parameters/parameter-name.js";
import type { ResolvedRetryOptions } from "../retry/retry-options.js";
import { resolveRetryOptions } from "../retry/retry-options.js";
import type { ToolChoiceMode } from "../tool-choice/tool-choice-mode.js";
import { toToolChoiceSupport } from "../tool-choice/tool-choice-mode.js";
import { checkRateLimitOptions, type RateLimitOptions } from "../rate-limit/rate-limit-options.js";
import { checkMiddleware, type ChatModelMiddleware } from "../middleware/chat-model-middleware.js";
import { checkMaxResponseBytes } from "../../internal/max-response-bytes.js";
import type { ChatModelOptions, ChatModelProfile } from "./chat-model-options.js";

/**
 * What a chat model is set to: its options, else its adapter's profile, checked when it is built,
 * as plain fields a caller may change later; and the three that also take in what the provider
 * refused in this process (`toolChoiceSupport`, `supportsStructuredOutput`, `unsupportedParameters`).
 * `ChatModel` is built on it; its calls read these at each call.
 */
export abstract class ChatModelSettings {
  /** "openai", "azure-openai", "ollama", "bedrock", "scripted", … */
  abstract readonly providerId: string;
  readonly modelId: string;
  /** As built (options, else the profile); what the provider refused is taken out when read. */
  private builtToolChoiceSupport: Set<ToolChoiceMode>;
  private builtStructuredOutput: boolean;
  private builtUnsupportedParameters: Set<ParameterName>;
  toolCallFallbackViaResponseFormat: boolean;
  supportsToolCalling: boolean;
  supportsTopLevelUnion: boolean;
  supportsResponseFormatWithTools: boolean;
  strictResponseFormat: boolean;
  allowParallelToolCalls: boolean;
  ignoreParallelToolCalls: boolean;
  fixInvalidToolCalls: boolean;
  recoverTextToolCallsOnAuto: boolean;
  retryOnEmptyResponse: boolean;
  maxRepairAttempts: number;
  cache: ChatModelCache;
  cacheTtlMs: number | undefined;
  cacheTimeoutMs: number;
  parameters: ChatModelParameters | undefined;
  strictParameters: boolean;
  readonly retry: ResolvedRetryOptions;
  /**
   * The middleware around its requests, the first outermost (`middleware` option, `wrapChatModel`);
   * an array assigned later holds for the requests after it.
   */
  middleware: readonly ChatModelMiddleware[];
  /** The budget its requests are held to, if any (`rateLimit` option). */
  readonly rateLimit: RateLimitOptions | undefined;
  /** The most bytes of one response body its requests read (`maxResponseBytes` option; `Infinity`: no cap). */
  readonly maxResponseBytes: number;
  /** Whether the provider takes images and files inside a tool result (the adapter's profile). */
  readonly toolResultMedia: boolean;
  /** Every call's timeout unless the call sets its own (`timeout` option). */
  timeout: CallTimeout | undefined;
  /** Prompt-cache breakpoints of every call that does not set its own (`promptCache` option). */
  readonly promptCache: PromptCacheMode;
  /** The profile fields the options set (the rest come from keelson's table). */
  private readonly profileOptions: Pick<ModelProfile, "contextWindow" | "maxOutputTokens" | "pricing">;
  private knownProfile: ModelProfile | undefined;
  constructor(modelId: string, options: ChatModelOptions = {}, profile: ChatModelProfile) {
    if (typeof modelId !== "string" || modelId.trim() === "") {
      throw new TypeError(`A model id is required (a non-empty string), got ${JSON.stringify(modelId)}.`);
    }
    if (options.maxRepairAttempts !== undefined) checkRepairBudget(options.maxRepairAttempts, "");
    this.modelId = modelId;
    this.builtToolChoiceSupport = toToolChoiceSupport(options.toolChoiceSupport ?? profile.toolChoiceSupport);
    this.toolCallFallbackViaResponseFormat = options.toolCallFallbackViaResponseFormat ?? true;
    this.supportsToolCalling = options.supportsToolCalling ?? profile.supportsToolCalling ?? true;
    this.builtStructuredOutput = options.supportsStructuredOutput ?? profile.supportsStructuredOutput;
    this.supportsTopLevelUnion = options.supportsTopLevelUnion ?? profile.supportsTopLevelUnion;
    this.supportsResponseFormatWithTools =
      options.supportsResponseFormatWithTools ?? profile.supportsResponseFormatWithTools ?? false;
    this.strictResponseFormat = options.strictResponseFormat ?? profile.strictResponseFormat ?? false;
    this.allowParallelToolCalls = options.allowParallelToolCalls ?? false;
    this.ignoreParallelToolCalls = options.ignoreParallelToolCalls ?? false;
    this.fixInvalidToolCalls = options.fixInvalidToolCalls ?? true;
    this.recoverTextToolCallsOnAuto = options.recoverTextToolCallsOnAuto ?? true;
    this.retryOnEmptyResponse = options.retryOnEmptyResponse ?? true;
    this.maxRepairAttempts = options.maxRepairAttempts ?? 2;
    this.cache = options.cache ?? new NullCache();
    this.cacheTtlMs = options.cacheTtlMs;
    this.cacheTimeoutMs = checkCacheTimeout(options.cacheTimeoutMs ?? 1000);
    this.parameters = options.parameters;
    this.builtUnsupportedParameters = toParameterSet(
      options.unsupportedParameters ?? profile.unsupportedParameters,
      "unsupportedParameters",
    );
    this.strictParameters = options.strictParameters ?? false;
    this.retry = resolveRetryOptions(options.retry, options.maxRetries);
    this.middleware = checkMiddleware(options.middleware ?? []);
    if (options.rateLimit !== undefined) checkRateLimitOptions(options.rateLimit);
    this.rateLimit = options.rateLimit === undefined ? undefined : { ...options.rateLimit };
    this.maxResponseBytes = checkMaxResponseBytes(options.maxResponseBytes);
    this.toolResultMedia = profile.toolResultMedia ?? true;
    readTimeout(options.timeout, "The timeout option");
    this.timeout = options.timeout;
    this.promptCache = readPromptCacheMode(options.promptCache, "The promptCache option") ?? "off";
    this.profileOptions = profileOptions(options);
  }

  /**
   * What keelson knows of this model's limits and prices: `contextWindow`, `maxOutputTokens` and
   * `pricing` from its dated table (`asOf`), each replaced by the constructor option of that name.
   */
  get profile(): ModelProfile {
    return (this.knownProfile ??= modelProfile(this.providerId, this.modelId, this.profileOptions));
  }

  /** Where this model's requests go (base URL, host, region, deployment); part of the cache key. */
  protected get endpoint(): string {
    return "";
  }

  /**
   * For adapters: where what this model's provider refused is kept for the process (with the
   * provider and model ids): models of one scope learn together. @default the endpoint
   */
  protected get capabilityScope(): string {
    return this.endpoint;
  }

  /** What this model's provider refused so far, in this process (nothing while the model is being built). */
  private learned(): LearnedCapabilities | undefined {
    // Read during construction (before the adapter set its id and endpoint), nothing is learned yet.
    if (typeof this.providerId !== "string") return undefined;
    return learnedFor({ providerId: this.providerId, scope: this.capabilityScope, modelId: this.modelId });
  }

  /**
   * The tool_choice values this provider honours; the ladder falls back for the rest. A value the
   * provider refused with a 400 (learned once per endpoint and model, for the whole process) is
   * gone from it, whatever the model was built with.
   */
  get toolChoiceSupport(): Set<ToolChoiceMode> {
    const support = this.builtToolChoiceSupport;
    const refused = this.learned()?.toolChoice;
    if (refused === undefined || ![...refused].some((value) => support.has(value))) return support;
    // A set of its own: one a caller assigned is not changed under them.
    return (this.builtToolChoiceSupport = new Set([...support].filter((value) => !refused.has(value))));
  }

  set toolChoiceSupport(support: Set<ToolChoiceMode>) {
    this.builtToolChoiceSupport = support;
  }

  /** Whether the provider takes a JSON-schema response format: false once it refused one (learned for the process). */
  get supportsStructuredOutput(): boolean {
    return this.builtStructuredOutput && this.learned()?.structuredOutput !== true;
  }

  set supportsStructuredOutput(supported: boolean) {
    this.builtStructuredOutput = supported;
  }

  /**
   * The parameters this provider and model have no field for: dropped with a warning, or refused
   * (`strictParameters`). A parameter the provider refused with a 400 (learned for the process) is among them.
   */
  get unsupportedParameters(): Set<ParameterName> {
    const unsupported = this.builtUnsupportedParameters;
    const refused = this.learned()?.parameters;
    if (refused === undefined || [...refused].every((name) => unsupported.has(name))) return unsupported;
    return (this.builtUnsupportedParameters = new Set([...unsupported, ...refused]));
  }

  set unsupportedParameters(names: Set<ParameterName>) {
    this.builtUnsupportedParameters = names;
  }
}

/** The profile fields a model's options set, checked. */
function profileOptions(
  options: ChatModelOptions,
): Pick<ModelProfile, "contextWindow" | "maxOutputTokens" | "pricing"> {
  const contextWindow = checkTokenCount(options.contextWindow, "contextWindow");
  const maxOutputTokens = checkTokenCount(options.maxOutputTokens, "maxOutputTokens");
  return {
    ...(contextWindow === undefined ? {} : { contextWindow }),
    ...(maxOutputTokens === undefined ? {} : { maxOutputTokens }),
    ...(options.pricing === undefined ? {} : { pricing: checkPricing(options.pricing) }),
  };
}

/**
 * A repair budget, checked: a non-negative integer (NaN or undefined would re-ask without bound).
 * `when` ends the message (where the value came from).
 */
export function checkRepairBudget(budget: unknown, when: string): number {
  if (!(Number.isInteger(budget) && (budget as number) >= 0)) {
    throw new TypeError(`maxRepairAttempts must be a non-negative integer, got ${String(budget)}${when}.`);
  }
  return budget as number;
}
