import type { ChatModelInput, ChatModelParameters, ProviderResponseFormat, ProviderTool } from "../input.js";
import type { Message } from "../messages.js";
import type { NormalizedToolChoice } from "../tool-choice/tool-choice-mode.js";
import { normalizeToolChoice } from "../tool-choice/tool-choice-mode.js";
import type { ToolChoiceCapabilities, ToolChoicePlan } from "../tool-choice/resolve-tool-choice.js";
import { resolveToolChoice } from "../tool-choice/resolve-tool-choice.js";
import type { OutputRules } from "./output-rules.js";
import { validateInput } from "./validate-input.js";
import { planStructure } from "./plan-structure.js";
import { indexTools } from "./tool-index.js";

/**
 * The model's settings a call is prepared with: the model itself (a ChatModel has them all), read
 * when the call is prepared; what the attempts need later is copied into the call's rules then.
 */
export interface CallSettings extends ToolChoiceCapabilities {
  allowParallelToolCalls: boolean;
  ignoreParallelToolCalls: boolean;
  fixInvalidToolCalls: boolean;
  recoverTextToolCallsOnAuto: boolean;
  retryOnEmptyResponse: boolean;
  readonly retry: { readonly maxRetries: number };
  parameters: ChatModelParameters | undefined;
}

/** A call after normalisation: everything the attempts need, computed once. */
export interface PreparedCall {
  input: ChatModelInput;
  messages: Message[];
  tools: readonly ProviderTool[];
  choice: NormalizedToolChoice;
  parallel: boolean;
  plan: ToolChoicePlan;
  rules: OutputRules;
  parameters: ChatModelParameters;
  maxRetries: number;
  useCache: boolean;
  /** The structured output the caller asked for, as it goes on the wire (when sent natively). */
  responseFormat?: ProviderResponseFormat;
  /** System instructions the base class adds (prompt rungs). */
  instructions: string[];
}

/** `modelClass` is the model's class name, for copy-paste fixes in error messages (a model's calls read it once). */
export function prepareCall(input: ChatModelInput, settings: CallSettings, modelClass: string): PreparedCall {
  validateInput(input);
  const { providerTools, toolsByName } = indexTools(input.tools);
  const choice = normalizeToolChoice(input.toolChoice);
  if (choice.mode === "single" && !toolsByName.has(choice.toolName)) {
    throw new TypeError(
      `toolChoice names the tool '${choice.toolName}', which is not in input.tools (${[...toolsByName.keys()].join(", ") || "none"}).`,
    );
  }
  if (choice.mode === "required" && providerTools.length === 0) {
    throw new TypeError("toolChoice 'required' needs at least one tool in input.tools.");
  }
  const parallel = input.parallelToolCalls ?? settings.allowParallelToolCalls;
  const plan = resolveToolChoice(choice, providerTools, parallel, settings);
  const fallbackTool = resolveFallbackTool(input, choice, toolsByName);

  const instructions: string[] = plan.instruction ? [plan.instruction] : [];
  const rules: OutputRules = {
    providerId: settings.providerId,
    modelId: settings.modelId,
    modelClass,
    toolChoiceSupport: settings.toolChoiceSupport,
    choice,
    plan,
    validators: toolsByName,
    allowParallel: parallel,
    ignoreParallel: settings.ignoreParallelToolCalls,
    fixInvalidToolCalls: settings.fixInvalidToolCalls,
    recoverTextToolCallsOnAuto: settings.recoverTextToolCallsOnAuto,
    fallbackTool,
    retryOnEmptyResponse: settings.retryOnEmptyResponse,
  };
  const prepared: PreparedCall = {
    input,
    messages: input.messages.slice(),
    tools: providerTools,
    choice,
    parallel,
    plan,
    rules,
    parameters: mergeParameters(settings.parameters, input.parameters),
    maxRetries: input.maxRetries ?? settings.retry.maxRetries,
    useCache: input.cache !== false,
    instructions,
  };
  if (input.responseFormat !== undefined) planStructure(prepared, input.responseFormat, settings);
  return prepared;
}

/** The model's default parameters under the call's own; a new object either way (adapters get their own). */
function mergeParameters(defaults: ChatModelParameters | undefined, given: ChatModelParameters | undefined): ChatModelParameters {
  if (defaults === undefined) return given === undefined ? {} : { ...given };
  return given === undefined ? { ...defaults } : { ...defaults, ...given };
}

function resolveFallbackTool(
  input: ChatModelInput,
  choice: NormalizedToolChoice,
  toolsByName: ReadonlyMap<string, unknown>,
): string | undefined {
  const given = input.fallbackTool;
  const name = typeof given === "string" ? given : given?.name;
  if (name === undefined) {
    if (choice.mode === "single") return choice.toolName;
    // A forced call with one tool in play can only be a call to it: bare parameters mean that tool.
    if (choice.mode === "required" && toolsByName.size === 1) return [...toolsByName.keys()][0];
    return undefined;
  }
  if (!toolsByName.has(name)) {
    throw new TypeError(`fallbackTool '${name}' is not in input.tools: keelson never falls back to a tool the call did not allow.`);
  }
  if (choice.mode === "single" && name !== choice.toolName) {
    throw new TypeError(`fallbackTool '${name}' differs from the forced tool '${choice.toolName}': only the forced tool may be called.`);
  }
  if (choice.mode === "none") return undefined;
  return name;
}
