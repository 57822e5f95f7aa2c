import type { ModelPricing } from "./model-pricing.js";
import { profileTable, profileTableDate, type ProfileFamily } from "./model-profile-table.js";

/** What keelson knows of a model's limits and prices (`model.profile`); every field is optional. */
export interface ModelProfile {
  /** Input and output tokens the model takes in one request, together. */
  contextWindow?: number;
  /** The most tokens one reply may have. */
  maxOutputTokens?: number;
  /** What its tokens cost, in USD per million. */
  pricing?: ModelPricing;
  /** The date of keelson's table the known fields come from (absent when the model is not in it). */
  asOf?: string;
}

/** The table's families a provider's model ids are looked up in. */
const familiesOf: Record<string, readonly ProfileFamily[]> = {
  openai: ["openai"],
  "azure-openai": ["openai"],
  anthropic: ["anthropic"],
  bedrock: ["bedrock", "anthropic"],
  ollama: ["ollama"],
  gemini: ["gemini"],
  google: ["gemini"],
};

/**
 * What may follow a table row's id in the same model's id: a dated or versioned snapshot, a tag,
 * `-latest` or `-preview` (`gpt-4o-2024-08-06`, `qwen3:0.6b`); never another model's name (`gpt-4o-mini`, `gpt-5-pro`).
 */
const sameModel = /^(?:$|[:@]|-(?:\d|v\d|latest|preview|exp|instruct))/;

/**
 * The profile keelson's table has for a provider's model, by the longest id that matches (dated
 * snapshots, `:tag`s and Bedrock's region and vendor prefixes included): `{}` when unknown.
 */
export function knownModelProfile(providerId: string, modelId: string): ModelProfile {
  const families = familiesOf[providerId];
  if (families === undefined) return {};
  const id = providerId === "bedrock" ? bedrockBaseId(modelId) : modelId.toLowerCase();
  let best: { prefix: string; profile: Omit<ModelProfile, "asOf"> } | undefined;
  for (const family of families) {
    for (const [prefix, profile] of Object.entries(profileTable[family])) {
      if (!id.startsWith(prefix) || !sameModel.test(id.slice(prefix.length))) continue;
      if (best === undefined || prefix.length > best.prefix.length) best = { prefix, profile };
    }
  }
  return best === undefined ? {} : { ...best.profile, asOf: profileTableDate };
}

/** `us.anthropic.claude-3-5-haiku-20241022-v1:0` → `claude-3-5-haiku-20241022-v1:0`; `amazon.nova-micro-v1:0` → `nova-micro-v1:0`. */
function bedrockBaseId(modelId: string): string {
  const id = modelId.toLowerCase().replace(/^arn:.*\//, "");
  return id.replace(/^(us|eu|apac|global|jp|au|ca|us-gov)\./, "").replace(/^[a-z0-9-]+\./, "");
}

/**
 * A model's profile: keelson's table, each field replaced by the constructor option of the same
 * name when given.
 */
export function modelProfile(
  providerId: string,
  modelId: string,
  overrides: Pick<ModelProfile, "contextWindow" | "maxOutputTokens" | "pricing">,
): ModelProfile {
  const profile = knownModelProfile(providerId, modelId);
  if (overrides.contextWindow !== undefined) profile.contextWindow = overrides.contextWindow;
  if (overrides.maxOutputTokens !== undefined) profile.maxOutputTokens = overrides.maxOutputTokens;
  if (overrides.pricing !== undefined) profile.pricing = overrides.pricing;
  return profile;
}

/** A `contextWindow` or `maxOutputTokens` option checked: a positive integer. */
export function checkTokenCount(value: unknown, name: string): number | undefined {
  if (value === undefined) return undefined;
  if (!Number.isInteger(value) || (value as number) <= 0) {
    throw new TypeError(`The ${name} option must be a positive integer number of tokens, got ${String(value)}.`);
  }
  return value as number;
}
