import type { ChatModelInput, ProviderResponseFormat, ProviderTool } from "../input.js";
import type { NormalizedToolChoice } from "../tool-choice/tool-choice-mode.js";
import { normalizeToolChoice } from "../tool-choice/tool-choice-mode.js";
import type { ToolChoicePlan } from "../tool-choice/resolve-tool-choice.js";
import { resolveToolChoice } from "../tool-choice/resolve-tool-choice.js";
import type { OutputRules } from "./output-rules.js";
import { planStructure } from "./plan-structure.js";
import type { CallSettings } from "./prepare-call.js";
import type { ToolIndex } from "./tool-index.js";

/**
 * What a call's tools, tool_choice, fallback tool and response format make under the model's
 * settings: the rung and wire form, the rules its reply must meet, keelson's instructions. The same
 * for every call that repeats them, so a model's calls share one (CallShapes); never changed once
 * made.
 */
export interface CallShape {
  tools: readonly ProviderTool[];
  choice: NormalizedToolChoice;
  parallel: boolean;
  plan: ToolChoicePlan;
  rules: OutputRules;
  /** System instructions the base class adds (prompt rungs). */
  instructions: string[];
  /** The structured output the caller asked for, as it goes on the wire (when sent natively). */
  responseFormat: ProviderResponseFormat | undefined;
}

/** A call's shape, made: the ladder climbed, the rules fixed, a response format planned. Throws what the caller must fix. */
export function shapeCall(
  input: ChatModelInput,
  index: ToolIndex,
  settings: CallSettings,
  modelClass: string,
): CallShape {
  const { providerTools, toolsByName } = index;
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
    fallbackTool: resolveFallbackTool(input, choice, toolsByName),
    retryOnEmptyResponse: settings.retryOnEmptyResponse,
  };
  const shape: CallShape = {
    tools: providerTools,
    choice,
    parallel,
    plan,
    rules,
    instructions: plan.instruction ? [plan.instruction] : [],
    responseFormat: undefined,
  };
  if (input.responseFormat !== undefined) planStructure(shape, input.responseFormat, settings);
  return shape;
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
    throw new TypeError(
      `fallbackTool '${name}' is not in input.tools: keelson never falls back to a tool the call did not allow.`,
    );
  }
  if (choice.mode === "single" && name !== choice.toolName) {
    throw new TypeError(
      `fallbackTool '${name}' differs from the forced tool '${choice.toolName}': only the forced tool may be called.`,
    );
  }
  if (choice.mode === "none") return undefined;
  return name;
}
