import type { ModelSettings } from "../model-settings.js";
import { UnsupportedFeatureError } from "../errors/unsupported-feature-error.js";
import type { ProviderResponseFormat, ProviderTool, ProviderToolChoice } from "../input.js";
import type { ToolChoiceRung } from "../output.js";
import type { NormalizedToolChoice, ToolChoiceMode } from "./tool-choice-mode.js";
import { toolUnionSchema } from "./tool-union-schema.js";
import { toolUnionInstruction } from "./tool-union-instruction.js";

/** What a model can do, as the ladder needs to know it. */
/** How a call's tool_choice goes on the wire, and how its reply must be read. */
export interface ToolChoicePlan {
  rung: Exclude<ToolChoiceRung, "rejected">;
  /** Why the call is not on the native rung. */
  reason?: string;
  tools?: ProviderTool[];
  toolChoice?: ProviderToolChoice;
  responseFormat?: ProviderResponseFormat;
  /** A system instruction added for the prompt rung. */
  instruction?: string;
  /** On the response-format and prompt rungs: the reply is a tool union to read back into calls. */
  readsUnion: boolean;
  /** Tools the reply may call on this plan. */
  allowedTools: readonly ProviderTool[];
}

export const toolUnionName = "tool_call";

/**
 * The ladder: settles a call's tool_choice on one rung given what the model supports.
 * Throws UnsupportedFeatureError (the "rejected" rung) when the fallback is switched off.
 */
export function resolveToolChoice(
  choice: NormalizedToolChoice,
  tools: readonly ProviderTool[],
  parallel: boolean,
  capabilities: ModelSettings,
): ToolChoicePlan {
  if (tools.length === 0) return { rung: "native", readsUnion: false, allowedTools: [] };
  const support = capabilities.supportsToolCalling ? capabilities.toolChoiceSupport : new Set<ToolChoiceMode>();
  switch (choice.mode) {
    case "none":
      return support.has("none")
        ? { rung: "native", tools: tools.slice(), toolChoice: "none", readsUnion: false, allowedTools: [] }
        : {
            rung: "emulated",
            reason: "tool_choice 'none' is not supported: tools are not sent",
            readsUnion: false,
            allowedTools: [],
          };
    case "auto":
      if (!capabilities.supportsToolCalling) {
        throw rejected(
          capabilities,
          "auto",
          "(the model cannot call tools)",
          "Leave out tools, or ask with toolChoice 'required' or a single tool: keelson then forces the call through structured output.",
        );
      }
      // Tools without a tool_choice is "auto" on every provider: where the value itself is refused
      // (Ollama ignores it, some gateways reject it) it is left out, and nothing else changes.
      return {
        rung: "native",
        tools: tools.slice(),
        ...(support.has("auto") ? { toolChoice: "auto" as const } : {}),
        readsUnion: false,
        allowedTools: tools,
      };
    case "required":
      if (support.has("required")) {
        return { rung: "native", tools: tools.slice(), toolChoice: "required", readsUnion: false, allowedTools: tools };
      }
      return unionFallback(tools, parallel, capabilities, "required");
    case "single": {
      const tool = tools.find((candidate) => candidate.name === choice.toolName)!;
      if (support.has("single")) {
        return {
          rung: "native",
          tools: tools.slice(),
          toolChoice: { type: "tool", name: tool.name },
          readsUnion: false,
          allowedTools: [tool],
        };
      }
      if (support.has("required")) {
        return {
          rung: "emulated",
          reason: `forcing one tool is not supported: only '${tool.name}' is sent, with tool_choice 'required'`,
          tools: [tool],
          toolChoice: "required",
          readsUnion: false,
          allowedTools: [tool],
        };
      }
      return unionFallback([tool], parallel, capabilities, "single");
    }
  }
}

function unionFallback(
  tools: readonly ProviderTool[],
  parallel: boolean,
  capabilities: ModelSettings,
  mode: "required" | "single",
): ToolChoicePlan {
  if (!capabilities.toolCallFallbackViaResponseFormat) {
    throw rejected(
      capabilities,
      mode,
      "and toolCallFallbackViaResponseFormat is false",
      "Set toolCallFallbackViaResponseFormat: true to let keelson force the call through structured output.",
    );
  }
  const what = mode === "single" ? "forcing one tool" : "tool_choice 'required'";
  if (capabilities.supportsStructuredOutput) {
    const strict = capabilities.strictResponseFormat;
    const schema = toolUnionSchema(tools, { parallel, wrap: !capabilities.supportsTopLevelUnion, strict });
    return {
      rung: "response-format",
      reason: `${what} is not supported: the tools are sent as one JSON schema in the response format`,
      responseFormat: { type: "json-schema", name: toolUnionName, schema, ...(strict ? { strict: true } : {}) },
      readsUnion: true,
      allowedTools: tools,
    };
  }
  const schema = toolUnionSchema(tools, { parallel });
  return {
    rung: "prompt",
    reason: `${what} is not supported and the model has no structured output: the tool schema goes into the prompt`,
    instruction: toolUnionInstruction(tools, schema),
    readsUnion: true,
    allowedTools: tools,
  };
}

function rejected(capabilities: ModelSettings, mode: string, detail: string, advice: string): UnsupportedFeatureError {
  return new UnsupportedFeatureError(
    `${capabilities.providerId} ${capabilities.modelId} does not support tool_choice '${mode}' ${detail}. ${advice}`,
    { feature: `tool_choice:${mode}`, providerId: capabilities.providerId, modelId: capabilities.modelId },
  );
}
