import type { FunctionCallingConfig, GenerateContentConfig, GenerateContentParameters } from "@google/genai";
import type { ChatModelParameters, ProviderInput, ProviderToolChoice } from "../../core/input.js";
import { convertToGoogleContents } from "./convert-to-google-contents.js";

/**
 * The thinking budget (tokens) each `reasoningEffort` asks for. `minimal` is Gemini's smallest
 * budget a thinking-only model (2.5 Pro) still takes; the others leave room for longer thought.
 */
export const thinkingBudgets: Record<NonNullable<ChatModelParameters["reasoningEffort"]>, number> = {
  minimal: 128,
  low: 1024,
  medium: 8192,
  high: 24576,
};

/**
 * One `generateContent` request from what the base class settled. Tools travel as
 * `functionDeclarations` with their JSON Schema (`parametersJsonSchema`) and every tool_choice,
 * `none` included (`functionCallingConfig.mode` `AUTO`, `NONE`, `ANY`, and `ANY` with
 * `allowedFunctionNames` for one tool); a JSON-schema response format is `responseJsonSchema` with
 * `responseMimeType: application/json`. `reasoningEffort` sets `thinkingConfig.thinkingBudget`, with
 * the thoughts returned (`includeThoughts`). `providerOptions` (`safetySettings`, `thinkingConfig`,
 * `cachedContent`, …) are merged into `config` last, one level deep.
 */
export function buildGoogleRequest(modelId: string, input: ProviderInput): GenerateContentParameters {
  const withTools = input.tools !== undefined && input.tools.length > 0;
  const { systemInstruction, contents } = convertToGoogleContents(input.messages, withTools);
  const config: GenerateContentConfig = {};
  if (systemInstruction) config.systemInstruction = systemInstruction;
  const { temperature, maxTokens, topP, topK, stop, seed, frequencyPenalty, presencePenalty, reasoningEffort } =
    input.parameters;
  if (temperature !== undefined) config.temperature = temperature;
  if (maxTokens !== undefined) config.maxOutputTokens = maxTokens;
  if (topP !== undefined) config.topP = topP;
  if (topK !== undefined) config.topK = topK;
  if (stop !== undefined && stop.length > 0) config.stopSequences = stop;
  if (seed !== undefined) config.seed = seed;
  if (frequencyPenalty !== undefined) config.frequencyPenalty = frequencyPenalty;
  if (presencePenalty !== undefined) config.presencePenalty = presencePenalty;
  if (reasoningEffort !== undefined) {
    config.thinkingConfig = { thinkingBudget: thinkingBudgets[reasoningEffort], includeThoughts: true };
  }
  if (withTools) {
    config.tools = [
      {
        functionDeclarations: input.tools!.map((tool) => ({
          name: tool.name,
          ...(tool.description === undefined || tool.description === "" ? {} : { description: tool.description }),
          parametersJsonSchema: tool.parameters,
        })),
      },
    ];
    const calling = toFunctionCallingConfig(input.toolChoice);
    if (calling) config.toolConfig = { functionCallingConfig: calling };
  }
  if (input.responseFormat) {
    config.responseMimeType = "application/json";
    if (input.responseFormat.type === "json-schema") config.responseJsonSchema = input.responseFormat.schema;
  }
  return { model: modelId, contents, config: mergeProviderOptions(config, input.providerOptions) };
}

/** keelson's tool_choice as Gemini's `functionCallingConfig`. */
export function toFunctionCallingConfig(choice: ProviderToolChoice | undefined): FunctionCallingConfig | undefined {
  if (choice === undefined) return undefined;
  if (choice === "auto") return { mode: "AUTO" as NonNullable<FunctionCallingConfig["mode"]> };
  if (choice === "none") return { mode: "NONE" as NonNullable<FunctionCallingConfig["mode"]> };
  if (choice === "required") return { mode: "ANY" as NonNullable<FunctionCallingConfig["mode"]> };
  return { mode: "ANY" as NonNullable<FunctionCallingConfig["mode"]>, allowedFunctionNames: [choice.name] };
}

/** `providerOptions` merged over the config, one level deep (`thinkingConfig: { thinkingLevel }` keeps the rest). */
function mergeProviderOptions(
  config: GenerateContentConfig,
  options: Record<string, unknown> | undefined,
): GenerateContentConfig {
  if (options === undefined || Object.keys(options).length === 0) return config;
  // Spread (not assigned) so a `__proto__` key stays a plain field.
  const merged: Record<string, unknown> = { ...config };
  for (const [key, value] of Object.entries(options)) {
    const current = merged[key];
    merged[key] = isPlainObject(current) && isPlainObject(value) ? { ...current, ...value } : value;
  }
  return merged as GenerateContentConfig;
}

function isPlainObject(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}
