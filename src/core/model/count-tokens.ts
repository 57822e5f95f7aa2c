import { isAbortError } from "../../internal/abort.js";
import { prepareCall, providerInput } from "../call/index.js";
import type { ModelSettings } from "../model-settings.js";
import type { ChatModelInput, ProviderInput } from "../input.js";
import { estimateInputTokens } from "../profiles/estimate-input-tokens.js";

/** What `model.countTokens(input)` answers. */
export interface TokenCount {
  /** The input tokens the call would send (messages, tools and response schema, as keelson sends them). */
  inputTokens: number;
  /** True when the provider counted them (its count endpoint); false for keelson's estimate. */
  exact: boolean;
}

/**
 * The input tokens of `input` on `model`, sent as a call would send it (the tool_choice rung's
 * tools or union schema included): the provider's count where the adapter has an endpoint for it,
 * else keelson's estimate (also when the endpoint fails: a count is advice, an abort is not).
 */
export async function countTokens(
  model: ModelSettings,
  input: ChatModelInput,
  countWithProvider: (input: ProviderInput) => Promise<number | undefined>,
): Promise<TokenCount> {
  const call = prepareCall(input, 0, model, model.constructor.name);
  const sent = providerInput(call, [], input.signal ?? new AbortController().signal);
  try {
    const counted = await countWithProvider(sent);
    if (counted !== undefined && Number.isInteger(counted) && counted >= 0)
      return { inputTokens: counted, exact: true };
  } catch (error) {
    if (isAbortError(error) || input.signal?.aborted) throw error;
  }
  return { inputTokens: await estimateInputTokens(model, sent), exact: false };
}
