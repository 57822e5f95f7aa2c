import type { ChatModelInput, ProviderInput } from "../input.js";
import type { Message } from "../messages.js";
import { indexTools } from "../schema/tool-index.js";
import { answerToolName, resolveToolsOrAnswer } from "../tool-choice/resolve-tools-or-answer.js";
import { resolveToolChoice } from "../tool-choice/resolve-tool-choice.js";
import type { NormalizedToolChoice } from "../tool-choice/tool-choice-mode.js";
import { normalizeToolChoice } from "../tool-choice/tool-choice-mode.js";
import { answersBesideTools, answerTool, planStructure } from "./plan-structure.js";
import type { PreparedCall } from "./prepared-call.js";
import type { ModelSettings } from "../model-settings.js";
import { validateInput } from "./validate-input.js";
import { definedFields } from "../../internal/defined-fields.js";
import { readPromptCacheMode } from "../prompt-cache/prompt-cache-mode.js";

/**
 * A call, prepared from its input and the model's settings as they are now: the input checked, the
 * tools defined, the tool_choice ladder climbed, a response format planned, the rules fixed. Throws a
 * TypeError for what the caller must fix. `modelClass` names the model in copy-paste fixes.
 */
export function prepareCall(
  input: ChatModelInput,
  callId: number,
  settings: ModelSettings,
  modelClass: string,
): PreparedCall {
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
  const format = input.responseFormat;
  const answer =
    format !== undefined && providerTools.length > 0 && answersBesideTools(choice, toolsByName, settings)
      ? answerTool(format)
      : undefined;
  const plan = answer
    ? resolveToolsOrAnswer(providerTools, answer.tool, parallel, settings)
    : resolveToolChoice(choice, providerTools, parallel, settings);
  const call: PreparedCall = {
    input,
    callId,
    messages: input.messages.slice(),
    tools: providerTools,
    choice,
    parallel,
    plan,
    rules: {
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
    },
    instructions: plan.instruction ? [plan.instruction] : [],
    responseFormat: undefined,
    // A parameter given as undefined is absent: it leaves the model's own in place.
    parameters: definedFields({ ...settings.parameters, ...definedFields(input.parameters ?? {}) }),
    maxRetries: input.maxRetries ?? settings.retry.maxRetries,
    useCache: input.cache !== false,
    promptCache: (readPromptCacheMode(input.promptCache, "input.promptCache") ?? settings.promptCache) === "auto",
  };
  if (answer) {
    const validators = new Map(toolsByName);
    validators.set(answerToolName, { tool: answer.tool, validate: answer.validate });
    call.rules.validators = validators;
    call.rules.structure = answer.structure;
    call.rules.structureTool = answerToolName;
  } else if (format !== undefined) planStructure(call, format, settings);
  return call;
}

/**
 * What the adapter is sent for one attempt: the call's plan on the wire, keelson's instructions in
 * the system message, and any temporary repair guidance after the caller's messages.
 */
export function providerInput(call: PreparedCall, guidance: readonly Message[], signal: AbortSignal): ProviderInput {
  const { plan } = call;
  const input: ProviderInput = {
    messages: withInstructions(call.messages, call.instructions, guidance),
    parameters: call.parameters,
    signal,
  };
  if (plan.tools) input.tools = plan.tools;
  if (plan.toolChoice) input.toolChoice = plan.toolChoice;
  const responseFormat = plan.responseFormat ?? call.responseFormat;
  if (responseFormat) input.responseFormat = responseFormat;
  if (plan.tools && plan.tools.length > 0 && plan.toolChoice !== "none") input.parallelToolCalls = call.parallel;
  if (call.input.providerOptions) input.providerOptions = call.input.providerOptions;
  if (call.promptCache) input.promptCache = "auto";
  return input;
}

function withInstructions(messages: Message[], instructions: string[], guidance: readonly Message[]): Message[] {
  if (instructions.length === 0 && guidance.length === 0) return messages;
  const result = [...messages, ...guidance];
  if (instructions.length > 0) {
    const instruction = instructions.join("\n\n");
    const first = result[0];
    if (first?.role === "system") result[0] = { role: "system", content: `${first.content}\n\n${instruction}` };
    else result.unshift({ role: "system", content: instruction });
  }
  return result;
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
