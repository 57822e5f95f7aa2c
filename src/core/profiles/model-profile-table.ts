import type { ModelPricing } from "./model-pricing.js";

/** When the table was checked against the providers' published model pages and price lists. */
export const profileTableDate = "2025-10-01";

/** A family of model ids, looked up for the providers that serve it (see model-profile.ts). */
export type ProfileFamily = "openai" | "anthropic" | "bedrock" | "gemini" | "ollama";

interface Row {
  contextWindow: number;
  maxOutputTokens: number;
  pricing?: ModelPricing;
}

/** USD per million tokens: input, output, cache read, cache write. */
const usd = (input: number, output: number, cachedInput?: number, cacheWrite?: number): ModelPricing => ({
  inputPerMTok: input,
  outputPerMTok: output,
  ...(cachedInput === undefined ? {} : { cachedInputPerMTok: cachedInput }),
  ...(cacheWrite === undefined ? {} : { cacheWritePerMTok: cacheWrite }),
});
/** Anthropic's rates: a cache read at 0.1× the input price, a 5-minute cache write at 1.25×. */
const claude = (input: number, output: number): ModelPricing => usd(input, output, input / 10, input * 1.25);

const claudeRows: Record<string, Row> = {
  "claude-opus-4-5": { contextWindow: 200_000, maxOutputTokens: 64_000, pricing: claude(5, 25) },
  "claude-opus-4": { contextWindow: 200_000, maxOutputTokens: 32_000, pricing: claude(15, 75) },
  "claude-sonnet-4": { contextWindow: 200_000, maxOutputTokens: 64_000, pricing: claude(3, 15) },
  "claude-haiku-4-5": { contextWindow: 200_000, maxOutputTokens: 64_000, pricing: claude(1, 5) },
  "claude-3-7-sonnet": { contextWindow: 200_000, maxOutputTokens: 64_000, pricing: claude(3, 15) },
  "claude-3-5-sonnet": { contextWindow: 200_000, maxOutputTokens: 8_192, pricing: claude(3, 15) },
  "claude-3-5-haiku": { contextWindow: 200_000, maxOutputTokens: 8_192, pricing: claude(0.8, 4) },
  "claude-3-opus": { contextWindow: 200_000, maxOutputTokens: 4_096, pricing: claude(15, 75) },
  "claude-3-haiku": { contextWindow: 200_000, maxOutputTokens: 4_096, pricing: usd(0.25, 1.25, 0.03, 0.3) },
};

/**
 * The models keelson knows, by id prefix (the longest matching prefix wins, so `gpt-4o-mini` is not
 * read as `gpt-4o`). Sources: the providers' model and pricing pages as of `profileTableDate`;
 * Ollama rows are the context length of the model's default tag (local: no price).
 */
export const profileTable: Record<ProfileFamily, Record<string, Row>> = {
  openai: {
    "gpt-5-nano": { contextWindow: 400_000, maxOutputTokens: 128_000, pricing: usd(0.05, 0.4, 0.005) },
    "gpt-5-mini": { contextWindow: 400_000, maxOutputTokens: 128_000, pricing: usd(0.25, 2, 0.025) },
    "gpt-5": { contextWindow: 400_000, maxOutputTokens: 128_000, pricing: usd(1.25, 10, 0.125) },
    "gpt-4.1-nano": { contextWindow: 1_047_576, maxOutputTokens: 32_768, pricing: usd(0.1, 0.4, 0.025) },
    "gpt-4.1-mini": { contextWindow: 1_047_576, maxOutputTokens: 32_768, pricing: usd(0.4, 1.6, 0.1) },
    "gpt-4.1": { contextWindow: 1_047_576, maxOutputTokens: 32_768, pricing: usd(2, 8, 0.5) },
    "gpt-4o-mini": { contextWindow: 128_000, maxOutputTokens: 16_384, pricing: usd(0.15, 0.6, 0.075) },
    "gpt-4o": { contextWindow: 128_000, maxOutputTokens: 16_384, pricing: usd(2.5, 10, 1.25) },
    "gpt-4-turbo": { contextWindow: 128_000, maxOutputTokens: 4_096, pricing: usd(10, 30) },
    "gpt-3.5-turbo": { contextWindow: 16_385, maxOutputTokens: 4_096, pricing: usd(0.5, 1.5) },
    o1: { contextWindow: 200_000, maxOutputTokens: 100_000, pricing: usd(15, 60, 7.5) },
    "o1-mini": { contextWindow: 128_000, maxOutputTokens: 65_536, pricing: usd(1.1, 4.4, 0.55) },
    o3: { contextWindow: 200_000, maxOutputTokens: 100_000, pricing: usd(2, 8, 0.5) },
    "o3-mini": { contextWindow: 200_000, maxOutputTokens: 100_000, pricing: usd(1.1, 4.4, 0.55) },
    "o4-mini": { contextWindow: 200_000, maxOutputTokens: 100_000, pricing: usd(1.1, 4.4, 0.275) },
  },
  anthropic: claudeRows,
  bedrock: {
    "nova-micro": { contextWindow: 128_000, maxOutputTokens: 10_000, pricing: usd(0.035, 0.14, 0.00875) },
    "nova-lite": { contextWindow: 300_000, maxOutputTokens: 10_000, pricing: usd(0.06, 0.24, 0.015) },
    "nova-pro": { contextWindow: 300_000, maxOutputTokens: 10_000, pricing: usd(0.8, 3.2, 0.2) },
    "llama3-1-8b": { contextWindow: 128_000, maxOutputTokens: 2_048, pricing: usd(0.22, 0.22) },
    "llama3-1-70b": { contextWindow: 128_000, maxOutputTokens: 2_048, pricing: usd(0.72, 0.72) },
    "mistral-large-2407": { contextWindow: 128_000, maxOutputTokens: 8_192, pricing: usd(2, 6) },
  },
  gemini: {
    "gemini-2.5-pro": { contextWindow: 1_048_576, maxOutputTokens: 65_536, pricing: usd(1.25, 10, 0.31) },
    "gemini-2.5-flash-lite": { contextWindow: 1_048_576, maxOutputTokens: 65_536, pricing: usd(0.1, 0.4, 0.025) },
    "gemini-2.5-flash": { contextWindow: 1_048_576, maxOutputTokens: 65_536, pricing: usd(0.3, 2.5, 0.075) },
    "gemini-2.0-flash": { contextWindow: 1_048_576, maxOutputTokens: 8_192, pricing: usd(0.1, 0.4, 0.025) },
    "gemini-1.5-pro": { contextWindow: 2_097_152, maxOutputTokens: 8_192, pricing: usd(1.25, 5) },
    "gemini-1.5-flash": { contextWindow: 1_048_576, maxOutputTokens: 8_192, pricing: usd(0.075, 0.3) },
  },
  ollama: {
    "llama3.1": { contextWindow: 131_072, maxOutputTokens: 131_072 },
    "llama3.2": { contextWindow: 131_072, maxOutputTokens: 131_072 },
    "llama3.3": { contextWindow: 131_072, maxOutputTokens: 131_072 },
    llama3: { contextWindow: 8_192, maxOutputTokens: 8_192 },
    "qwen2.5": { contextWindow: 32_768, maxOutputTokens: 32_768 },
    qwen3: { contextWindow: 40_960, maxOutputTokens: 40_960 },
    mistral: { contextWindow: 32_768, maxOutputTokens: 32_768 },
    gemma3: { contextWindow: 131_072, maxOutputTokens: 131_072 },
    gemma2: { contextWindow: 8_192, maxOutputTokens: 8_192 },
    phi4: { contextWindow: 16_384, maxOutputTokens: 16_384 },
    "deepseek-r1": { contextWindow: 131_072, maxOutputTokens: 131_072 },
    "gpt-oss": { contextWindow: 131_072, maxOutputTokens: 131_072 },
  },
};
