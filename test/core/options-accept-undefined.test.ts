import { describe, expect, expectTypeOf, it } from "vitest";
import type { AnthropicChatModelOptions } from "../../src/adapters/anthropic/index.js";
import type { AzureOpenAIChatModelOptions } from "../../src/adapters/azure-openai/index.js";
import type { BedrockChatModelOptions } from "../../src/adapters/bedrock/index.js";
import type { OllamaChatModelOptions } from "../../src/adapters/ollama/index.js";
import type {
  ConvertToOpenAIOptions,
  OpenAIChatModelOptions,
  OpenAIResponsesChatModelOptions,
} from "../../src/adapters/openai/index.js";
import type { EvalCase, EvalExpectation, EvaluateOptions, KeelsonCommandIO } from "../../src/eval/index.js";
import {
  defineTool,
  type ChatModelInput,
  type ChatModelOptions,
  type ChatModelParameters,
  type MemoryCacheOptions,
  type OpenAIFunctionToolDefinition,
  type ParametersToolDefinition,
  type RateLimitOptions,
  type RetryOptions,
  type RunToolsOptions,
  type StructureInput,
  type ToolDefinition,
  type ToolUnionSchemaOptions,
  type WithFallbacksOptions,
} from "../../src/index.js";
import type { InstrumentOptions } from "../../src/otel/index.js";
import {
  ScriptedChatModel,
  textStep,
  toolCallStep,
  type AdapterConformanceOptions,
  type ErrorSpec,
  type RecordingChatModelOptions,
  type ReplayChatModelOptions,
  type ScriptedChatModelOptions,
  type StepOptions,
} from "../../src/testing/index.js";

/**
 * The optional fields of `T` that refuse an explicit `undefined` under `exactOptionalPropertyTypes`
 * (`never` when every one takes it): `{ [K]: undefined }` must be assignable to `Pick<T, K>`.
 */
type RejectsUndefined<T> = {
  [K in keyof T]-?: Partial<Pick<T, K>> extends Pick<T, K>
    ? { [P in K]: undefined } extends Pick<T, K>
      ? never
      : K
    : never;
}[keyof T];

describe("options under exactOptionalPropertyTypes", () => {
  it("should take undefined in every optional field of every public options object", () => {
    expectTypeOf<RejectsUndefined<ChatModelInput>>().toEqualTypeOf<never>();
    expectTypeOf<RejectsUndefined<ChatModelParameters>>().toEqualTypeOf<never>();
    expectTypeOf<RejectsUndefined<StructureInput>>().toEqualTypeOf<never>();
    expectTypeOf<RejectsUndefined<ChatModelOptions>>().toEqualTypeOf<never>();
    expectTypeOf<RejectsUndefined<RetryOptions>>().toEqualTypeOf<never>();
    expectTypeOf<RejectsUndefined<RateLimitOptions>>().toEqualTypeOf<never>();
    expectTypeOf<RejectsUndefined<WithFallbacksOptions>>().toEqualTypeOf<never>();
    expectTypeOf<RejectsUndefined<MemoryCacheOptions>>().toEqualTypeOf<never>();
    expectTypeOf<RejectsUndefined<ToolUnionSchemaOptions>>().toEqualTypeOf<never>();
    expectTypeOf<RejectsUndefined<InstrumentOptions>>().toEqualTypeOf<never>();
    expectTypeOf<RejectsUndefined<OpenAIChatModelOptions>>().toEqualTypeOf<never>();
    expectTypeOf<RejectsUndefined<OpenAIResponsesChatModelOptions>>().toEqualTypeOf<never>();
    expectTypeOf<RejectsUndefined<ConvertToOpenAIOptions>>().toEqualTypeOf<never>();
    expectTypeOf<RejectsUndefined<AzureOpenAIChatModelOptions>>().toEqualTypeOf<never>();
    expectTypeOf<RejectsUndefined<OllamaChatModelOptions>>().toEqualTypeOf<never>();
    expectTypeOf<RejectsUndefined<BedrockChatModelOptions>>().toEqualTypeOf<never>();
    expectTypeOf<RejectsUndefined<AnthropicChatModelOptions>>().toEqualTypeOf<never>();
    expectTypeOf<RejectsUndefined<ScriptedChatModelOptions>>().toEqualTypeOf<never>();
    expectTypeOf<RejectsUndefined<StepOptions>>().toEqualTypeOf<never>();
    expectTypeOf<RejectsUndefined<ErrorSpec>>().toEqualTypeOf<never>();
    expectTypeOf<RejectsUndefined<RecordingChatModelOptions>>().toEqualTypeOf<never>();
    expectTypeOf<RejectsUndefined<ReplayChatModelOptions>>().toEqualTypeOf<never>();
    expectTypeOf<RejectsUndefined<AdapterConformanceOptions>>().toEqualTypeOf<never>();
    expectTypeOf<RejectsUndefined<RunToolsOptions>>().toEqualTypeOf<never>();
    expectTypeOf<RejectsUndefined<EvaluateOptions>>().toEqualTypeOf<never>();
    expectTypeOf<RejectsUndefined<EvalCase>>().toEqualTypeOf<never>();
    expectTypeOf<RejectsUndefined<EvalExpectation>>().toEqualTypeOf<never>();
    expectTypeOf<RejectsUndefined<KeelsonCommandIO>>().toEqualTypeOf<never>();
    expectTypeOf<RejectsUndefined<ToolDefinition>>().toEqualTypeOf<never>();
    expectTypeOf<RejectsUndefined<ParametersToolDefinition>>().toEqualTypeOf<never>();
    expectTypeOf<RejectsUndefined<OpenAIFunctionToolDefinition>>().toEqualTypeOf<never>();
    // The check catches a field that refuses it.
    expectTypeOf<RejectsUndefined<{ signal?: AbortSignal }>>().toEqualTypeOf<"signal">();
  });

  it("should compile `signal: maybeSignal` and its kind as they are", () => {
    const maybeSignal: AbortSignal | undefined = undefined;
    const maybeNumber: number | undefined = undefined;
    const input: ChatModelInput = { messages: [{ role: "user", content: "hi" }], signal: maybeSignal };
    const options: OllamaChatModelOptions = {
      host: undefined,
      retry: { maxRetries: maybeNumber },
      maxRetries: maybeNumber,
    };
    expect([input.signal, options.host]).toEqual([undefined, undefined]);
  });
});

const tool = defineTool({
  name: "get_weather",
  inputSchema: { type: "object", properties: { city: { type: "string" } }, required: ["city"] },
});
const messages = [{ role: "user" as const, content: "Weather in Oslo?" }];

describe.each(["create", "createStream"] as const)("undefined options at runtime (%s)", (mode) => {
  const call = async (model: ScriptedChatModel, input: ChatModelInput) =>
    mode === "create" ? model.create(input) : model.createStream(input).final();

  it("should treat every input field given as undefined as absent", async () => {
    const steps = () => [toolCallStep("get_weather", { city: "Oslo" }, { id: "c1" })];
    const plain = new ScriptedChatModel(steps(), { parameters: { temperature: 0.2 } });
    const withUndefined = new ScriptedChatModel(steps(), { parameters: { temperature: 0.2 } });
    const base = { messages, tools: [tool], toolChoice: "required" as const };
    const a = await call(plain, base);
    const b = await call(withUndefined, {
      ...base,
      responseFormat: undefined,
      parallelToolCalls: undefined,
      fallbackTool: undefined,
      parameters: { temperature: undefined, maxTokens: undefined },
      maxRetries: undefined,
      signal: undefined,
      timeout: undefined,
      cache: undefined,
      providerOptions: undefined,
    });
    expect(b.toolCalls).toEqual(a.toolCalls);
    // The model's temperature stays: a parameter given as undefined hides nothing.
    expect(withUndefined.calls).toEqual(plain.calls);
    expect(withUndefined.calls[0]!.parameters).toEqual({ temperature: 0.2 });
  });

  it("should build a model with every common option undefined as one with none", async () => {
    const every: Required<{ [K in keyof ScriptedChatModelOptions]: undefined }> = {
      modelId: undefined,
      toolChoiceSupport: undefined,
      toolCallFallbackViaResponseFormat: undefined,
      supportsToolCalling: undefined,
      supportsStructuredOutput: undefined,
      supportsTopLevelUnion: undefined,
      supportsResponseFormatWithTools: undefined,
      strictResponseFormat: undefined,
      allowParallelToolCalls: undefined,
      ignoreParallelToolCalls: undefined,
      fixInvalidToolCalls: undefined,
      recoverTextToolCallsOnAuto: undefined,
      retryOnEmptyResponse: undefined,
      retry: undefined,
      maxRetries: undefined,
      maxRepairAttempts: undefined,
      cache: undefined,
      cacheTtlMs: undefined,
      cacheTimeoutMs: undefined,
      parameters: undefined,
      unsupportedParameters: undefined,
      strictParameters: undefined,
      rateLimit: undefined,
      middleware: undefined,
      maxResponseBytes: undefined,
    } as Required<{ [K in keyof ScriptedChatModelOptions]: undefined }>;
    const plain = new ScriptedChatModel([textStep("hi")]);
    const undefinedEverywhere = new ScriptedChatModel([textStep("hi")], every);
    const settings = (model: ScriptedChatModel) => ({
      modelId: model.modelId,
      toolChoiceSupport: [...model.toolChoiceSupport].sort(),
      supportsStructuredOutput: model.supportsStructuredOutput,
      allowParallelToolCalls: model.allowParallelToolCalls,
      fixInvalidToolCalls: model.fixInvalidToolCalls,
      maxRepairAttempts: model.maxRepairAttempts,
      retry: model.retry,
    });
    expect(settings(undefinedEverywhere)).toEqual(settings(plain));
    expect((await call(undefinedEverywhere, { messages })).text).toBe("hi");
  });
});
