import { UnsupportedFeatureError } from "../errors/unsupported-feature-error.js";
import type { ProviderTool } from "../input.js";
import type { ModelSettings } from "../model-settings.js";
import type { ToolChoicePlan } from "./resolve-tool-choice.js";
import { toolUnionName } from "./resolve-tool-choice.js";
import { toolUnionInstruction } from "./tool-union-instruction.js";
import { toolUnionSchema } from "./tool-union-schema.js";

/**
 * The name of the synthetic tool (and tool-union variant) that carries the final answer of a call
 * with tools and a response format. Reserved: a caller's tool of that name is refused.
 */
export const answerToolName = "keelson_final_answer";

export const answerToolDescription =
  "Give the final answer in this shape. Call it instead of the other tools once no more tool calls are needed.";

/**
 * The ladder for a call with tools and a response format under tool_choice "auto", where the
 * provider cannot take both in one request: the answer is `answerTool`, one more choice beside the
 * tools. Natively it is offered as a tool, forced with "required" where the provider honours it (the
 * model must pick a tool or the answer); without "required", the tools and the answer are one JSON
 * schema in the response format where the provider has structured output, else the answer tool is
 * offered under "auto" (a text reply is read as the answer). A model that cannot call tools gets the
 * union in the response format, or in the prompt. Throws UnsupportedFeatureError where the fallback is switched off and
 * the model cannot call tools.
 */
export function resolveToolsOrAnswer(
  tools: readonly ProviderTool[],
  answerTool: ProviderTool,
  parallel: boolean,
  capabilities: ModelSettings,
): ToolChoicePlan {
  const choices = [...tools, answerTool];
  const support = capabilities.toolChoiceSupport;
  const canCall = capabilities.supportsToolCalling;
  const fallback = capabilities.toolCallFallbackViaResponseFormat;
  if (canCall && (support.has("required") || !fallback || !capabilities.supportsStructuredOutput)) {
    const forced = support.has("required");
    return {
      rung: "native",
      tools: choices,
      ...(forced ? { toolChoice: "required" as const } : support.has("auto") ? { toolChoice: "auto" as const } : {}),
      readsUnion: false,
      allowedTools: choices,
    };
  }
  if (!fallback) {
    throw new UnsupportedFeatureError(
      `${capabilities.providerId} ${capabilities.modelId} cannot call tools, and toolCallFallbackViaResponseFormat is false. ` +
        "Set toolCallFallbackViaResponseFormat: true to let keelson offer the tools and the answer through structured output, or leave out tools.",
      { feature: "tool_choice:auto", providerId: capabilities.providerId, modelId: capabilities.modelId },
    );
  }
  const why = canCall ? "tools and a response format cannot travel in one request" : "the model cannot call tools";
  if (capabilities.supportsStructuredOutput) {
    const strict = capabilities.strictResponseFormat;
    const schema = toolUnionSchema(choices, { parallel, wrap: !capabilities.supportsTopLevelUnion, strict });
    return {
      rung: "response-format",
      reason: `${why}: the tools and the answer are sent as one JSON schema in the response format`,
      responseFormat: { type: "json-schema", name: toolUnionName, schema, ...(strict ? { strict: true } : {}) },
      readsUnion: true,
      allowedTools: choices,
    };
  }
  const schema = toolUnionSchema(choices, { parallel });
  return {
    rung: "prompt",
    reason: `${why} and the model has no structured output: the tools and the answer go into the prompt`,
    instruction: toolUnionInstruction(choices, schema, answerTool.name),
    readsUnion: true,
    allowedTools: choices,
  };
}
