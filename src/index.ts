/**
 * The chat-model interface, messages, tools, output, errors, caches and `createChatModel`.
 * @module keelson
 */
export { ChatModel } from "./core/model/chat-model.js";
export { isChatModelLike, type ChatModelLike } from "./core/model/chat-model-like.js";
export type { ChatModelOptions, ChatModelProfile } from "./core/model/chat-model-options.js";
export { ChatModelEmitter, type Listening } from "./core/emitter/chat-model-emitter.js";
export type * from "./core/events.js";
export type {
  ChatModelInput,
  ChatModelParameters,
  ToolChoice,
  SingleToolChoice,
  ResponseFormat,
  ProviderInput,
  ProviderTool,
  ProviderToolChoice,
  ProviderResponseFormat,
  RunContext,
  StructureInput,
  InferResponseFormatOutput,
  InferSchemaOutput,
} from "./core/input.js";
export type {
  Message,
  SystemMessage,
  UserMessage,
  AssistantMessage,
  ToolMessage,
  ToolResultPart,
  ToolCall,
  TextPart,
  ImagePart,
  FilePart,
  ReasoningPart,
  UserContentPart,
  AssistantContentPart,
} from "./core/messages.js";
export { messageText, messageToolCalls } from "./core/messages.js";
export type {
  ChatModelOutput,
  ChatModelOutputMeta,
  ModelRef,
  FinishReason,
  ToolChoiceRung,
  Repair,
  RepairKind,
  Attempt,
  ProviderOutput,
  ProviderToolCall,
} from "./core/output.js";
export type { Usage } from "./core/usage.js";
export type { CallTimeout, StallTimeout } from "./core/budgets/call-timeout.js";
export type { TokenCount } from "./core/model/count-tokens.js";
export type { ModelProfile } from "./core/profiles/model-profile.js";
export type { PromptCacheMode } from "./core/prompt-cache/prompt-cache-mode.js";
export { costOf, type ModelPricing } from "./core/profiles/model-pricing.js";
export { defineTool } from "./core/define-tool.js";
export {
  type Tool,
  type ToolDefinition,
  type ZodToolDefinition,
  type ToolFields,
  type ToolExecuteContext,
  type RichToolResult,
  type InferToolOutput,
  type ToolCallOf,
  type AnyTool,
  type InferToolArgs,
  type UntypedArgs,
  type ToolExecute,
  type ParametersToolDefinition,
  type OpenAIFunctionToolDefinition,
} from "./core/tool.js";
export type { JSONSchema } from "./core/schema/json-schema.js";
export type { SchemaInput } from "./core/schema/schema-input.js";
export type { ChatModelChunk } from "./core/stream/chat-model-chunk.js";
export { ChatModelStream, type StreamCall } from "./core/stream/chat-model-stream.js";
export { toolUnionSchema, type ToolUnionSchemaOptions, type UnionTool } from "./core/tool-choice/tool-union-schema.js";
export type { ToolChoiceMode } from "./core/tool-choice/tool-choice-mode.js";
export type { ParameterName } from "./core/parameters/parameter-name.js";
export type { RetryOptions } from "./core/retry/retry-options.js";
export { parseRetryAfter } from "./core/retry/parse-retry-after.js";
export type { ChatModelCache } from "./core/cache/chat-model-cache.js";
export { NullCache } from "./core/cache/null-cache.js";
export { MemoryCache, type MemoryCacheOptions } from "./core/cache/memory-cache.js";
export { KeyvCache, type KeyvLike } from "./core/cache/keyv-cache.js";
export * from "./core/errors/index.js";
export { ContextOverflowError, type ContextOverflowErrorOptions } from "./core/budgets/context-overflow-error.js";
export {
  createChatModel,
  type ChatModelName,
  type ProviderName,
  type ChatModelOptionsByProvider,
} from "./create-chat-model.js";
export { withFallbacks, type WithFallbacksOptions } from "./fleet/with-fallbacks.js";
export { createRouter } from "./fleet/create-router.js";
export { RouterChatModel, RouterChatModel as FallbackChatModel } from "./fleet/router-chat-model.js";
export type { RouterOptions, RouterStrategy, RouterStore } from "./fleet/router-options.js";
export { FallbackError, type MemberFailure } from "./fleet/fallback-error.js";
export type { RateLimitOptions, RateLimitStore } from "./core/rate-limit/rate-limit-options.js";
export {
  openAICompatiblePresets,
  type OpenAICompatiblePreset,
  type OpenAICompatibleServer,
} from "./openai-compatible-presets.js";
export { runTools } from "./run-tools/run-tools.js";
export type { RunBudget } from "./run-tools/run-budget.js";
export { streamTools, ToolRunStream } from "./run-tools/stream-tools.js";
export type {
  RunToolsOptions,
  RunCallOptions,
  RunResult,
  RunObject,
  AuthorizeContext,
  Authorization,
  RunToolCall,
} from "./run-tools/run-tools-options.js";
export type { Approvals, PendingApproval } from "./run-tools/approvals.js";
export type { RunEvent, ToolEventBase } from "./run-tools/run-event.js";
export type { PrepareStep, PrepareStepContext, StepSettings } from "./run-tools/prepare-step.js";
export type { Plan, PlanStep } from "./run-tools/plan-execute.js";
export type { RunStep, ToolResult } from "./run-tools/run-step.js";
export type { RunPart } from "./run-tools/run-part.js";
export { RunError, type RunErrorReason, type RunErrorOptions } from "./run-tools/run-error.js";
export type {
  ChatModelMiddleware,
  MiddlewareContext,
  WrappedCreate,
  WrappedStream,
} from "./core/middleware/chat-model-middleware.js";
export { wrapChatModel } from "./core/model/wrap-chat-model.js";
export {
  extractReasoningMiddleware,
  type ExtractReasoningOptions,
} from "./core/middleware/extract-reasoning-middleware.js";
