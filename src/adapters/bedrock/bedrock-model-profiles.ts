import type { ChatModelProfile } from "../../core/model/chat-model-options.js";
import type { ParameterName } from "../../core/parameters/parameter-name.js";
import type { ToolChoiceMode } from "../../core/tool-choice/tool-choice-mode.js";

/** What keelson assumes about a Bedrock model family when the constructor options do not say. */
export interface BedrockModelProfile extends ChatModelProfile {
  toolChoiceSupport: readonly ToolChoiceMode[];
  /** How `parameters.topK` travels in `additionalModelRequestFields` (unsent when absent: then `topK` is unsupported). */
  topK?: (topK: number) => Record<string, unknown>;
  unsupportedParameters: readonly ParameterName[];
  /** Whether the family takes Converse `cachePoint` blocks (`promptCache: "auto"` places them only then). @default false */
  promptCache?: boolean;
}

const autoOnly: readonly ToolChoiceMode[] = ["auto"];
// Converse has no "none": it is left out everywhere, so the base class emulates it (tools not sent).
const forcing: readonly ToolChoiceMode[] = ["auto", "required", "single"];
const anthropicTopK = (topK: number) => ({ top_k: topK });
const novaTopK = (topK: number) => ({ inferenceConfig: { topK } });

// Converse's inferenceConfig has no seed, penalties or reasoning effort, and keelson sends topK only
// where it knows the family's field: the rest is declared, for the base class to warn about.
const converseLacks: readonly ParameterName[] = ["seed", "frequencyPenalty", "presencePenalty", "reasoningEffort"];
const withoutTopK: readonly ParameterName[] = [...converseLacks, "topK"];

const base = { supportsTopLevelUnion: false, unsupportedParameters: withoutTopK } as const;
const claudeStructured: BedrockModelProfile = {
  ...base,
  toolChoiceSupport: forcing,
  supportsStructuredOutput: true,
  // Constrained decoding wants closed objects (additionalProperties: false).
  strictResponseFormat: true,
  topK: anthropicTopK,
  unsupportedParameters: converseLacks,
  promptCache: true,
};
const openWeightStructured: BedrockModelProfile = {
  ...base,
  toolChoiceSupport: autoOnly,
  supportsStructuredOutput: true,
  strictResponseFormat: true,
};

/**
 * Capabilities by model-id prefix, most specific first (the first match wins). Sources: the Bedrock
 * API reference (ToolChoice: `any`/`auto` for Claude 3+ and Mistral Large, `tool` for Claude), the
 * Amazon Nova user guide (tool, any, auto) and the structured-output user guide (Feb 2026: Claude
 * Sonnet 4.5, Haiku 4.5, Opus 4.5, Opus 4.6 and some open-weight families). Rows marked "assumed"
 * could not be confirmed there; override them with the constructor options.
 */
const profiles: readonly (readonly [prefix: string, profile: BedrockModelProfile])[] = [
  ["anthropic.claude-sonnet-4-5", claudeStructured],
  ["anthropic.claude-haiku-4-5", claudeStructured],
  ["anthropic.claude-opus-4-5", claudeStructured],
  ["anthropic.claude-opus-4-6", claudeStructured],
  ["anthropic.claude-sonnet-4-6", claudeStructured], // assumed: newer than the structured-output list
  [
    "anthropic.claude-v2",
    { ...base, toolChoiceSupport: [], supportsToolCalling: false, supportsStructuredOutput: false },
  ],
  [
    "anthropic.claude-instant",
    { ...base, toolChoiceSupport: [], supportsToolCalling: false, supportsStructuredOutput: false },
  ],
  [
    "anthropic.claude",
    {
      ...base,
      toolChoiceSupport: forcing,
      supportsStructuredOutput: false,
      topK: anthropicTopK,
      unsupportedParameters: converseLacks,
      promptCache: true,
    },
  ],
  [
    "amazon.nova",
    {
      ...base,
      toolChoiceSupport: forcing,
      supportsStructuredOutput: false,
      topK: novaTopK,
      unsupportedParameters: converseLacks,
      promptCache: true,
    },
  ],
  ["amazon.titan", { ...base, toolChoiceSupport: [], supportsToolCalling: false, supportsStructuredOutput: false }],
  // ToolChoice docs name Mistral Large for `any`; `tool` is Claude-only there.
  ["mistral.mistral-large", { ...base, toolChoiceSupport: ["auto", "required"], supportsStructuredOutput: false }],
  ["qwen.", openWeightStructured],
  ["openai.gpt-oss", openWeightStructured],
  ["deepseek.v3", openWeightStructured],
  ["google.gemma-3", openWeightStructured],
  ["minimax.", openWeightStructured],
  ["moonshot.", openWeightStructured], // assumed: the list names "Kimi K2"
  ["nvidia.nemotron", openWeightStructured],
];

/** Meta Llama, most Mistral models, Cohere, AI21 and anything unknown: tools with `auto` only. */
const defaultProfile: BedrockModelProfile = { ...base, toolChoiceSupport: autoOnly, supportsStructuredOutput: false };

const crossRegionPrefix = /^(?:us|us-gov|eu|apac|global|jp|au|ca)\./;

/** The foundation-model id inside an inference-profile id or ARN (`us.`, `global.`, `arn:…/`). */
export function baseModelId(modelId: string): string {
  const id = modelId.startsWith("arn:") ? modelId.slice(modelId.lastIndexOf("/") + 1) : modelId;
  return id.replace(crossRegionPrefix, "");
}

/** The profile of a Bedrock model id (cross-region prefixes and ARNs understood). */
export function bedrockModelProfile(modelId: string): BedrockModelProfile {
  const id = baseModelId(modelId);
  return profiles.find(([prefix]) => id.startsWith(prefix))?.[1] ?? defaultProfile;
}
