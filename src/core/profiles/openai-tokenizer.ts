import { LazyModule } from "../loading/lazy-import.js";

/** A tokenizer's count of one text. */
export type CountText = (text: string) => number;

// gpt-tokenizer's encodings, each loaded on the first count that needs it (o200k_base is 2.4 MB of ranks).
const o200k = new LazyModule(() => import("gpt-tokenizer/encoding/o200k_base"));
const cl100k = new LazyModule(() => import("gpt-tokenizer/encoding/cl100k_base"));
/** Text is counted as text: a special token's spelling in a message is its characters, never a control token. */
const asText = { disallowedSpecial: new Set<string>() };

/** Models on cl100k_base (GPT-4 and GPT-3.5); every later OpenAI model uses o200k_base. */
const cl100kModels = /^(gpt-4(?!o|\.)|gpt-3\.5)/;
/** OpenAI's own model ids: `gpt-*`, the o-series, `chatgpt-*`, `codex-*`. */
const openAIModels = /^(gpt-|o\d|chatgpt-|codex-)/;

/**
 * The exact tokenizer of an OpenAI model, loaded (lazily, once) — undefined for a model that is not
 * OpenAI's (an open-weights model on an OpenAI-compatible server has its own) or when it cannot load.
 */
export async function openAITokenizer(modelId: string): Promise<CountText | undefined> {
  const id = modelId.toLowerCase();
  if (!openAIModels.test(id) || id.startsWith("gpt-oss")) return undefined;
  const encoding = cl100kModels.test(id) ? cl100k : o200k;
  try {
    const { countTokens } = encoding.loaded ?? (await encoding.load());
    return (text) => countTokens(text, asText);
  } catch {
    return undefined;
  }
}
