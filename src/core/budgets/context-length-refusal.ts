import { ContextOverflowError } from "./context-overflow-error.js";
import { ProviderError } from "../errors/provider-error.js";

/** How providers word a request that does not fit the context window (OpenAI and compatible servers, Anthropic, Bedrock, Gemini, Ollama). */
const overflowWords =
  /context_length_exceeded|maximum context length|context length|context window|prompt is too long|input is too long|too many (input )?tokens|exceeds the (maximum|max) (number of )?tokens|input token count .* exceeds/i;

/** "… is 128000 tokens … resulted in 130532 tokens" (OpenAI); "208310 tokens > 200000 maximum" (Anthropic). */
const openAICounts = /maximum context length is (\d+) tokens[^\d]+?(\d+) tokens/i;
const anthropicCounts = /(\d+) tokens > (\d+) maximum/i;

/**
 * A provider's refusal of a request too long for the model's window (a 400 or 413 saying so) as
 * the `ContextOverflowError` keelson raises before a request, the provider's error as its `cause`
 * and its counts where the message gives them; any other error as it is.
 */
export function contextLengthRefusal(error: unknown, maxTokens: number | undefined): unknown {
  if (!ProviderError.isInstance(error) || (error.statusCode !== 400 && error.statusCode !== 413)) return error;
  const said = `${error.code ?? ""} ${error.message}`;
  if (!overflowWords.test(said)) return error;
  const openAI = openAICounts.exec(said);
  const anthropic = anthropicCounts.exec(said);
  const contextWindow = openAI ? Number(openAI[1]) : anthropic ? Number(anthropic[2]) : undefined;
  const inputTokens = openAI ? Number(openAI[2]) : anthropic ? Number(anthropic[1]) : undefined;
  return new ContextOverflowError(
    `${error.providerId ?? "The provider"} ${error.modelId ?? ""} refused the request as longer than its context window${contextWindow === undefined ? "" : ` of ${contextWindow} tokens`}: shorten or summarise the messages, lower maxTokens, or use a model with a larger window (set contextWindow on the model for keelson to check before sending). The provider said: ${error.message}`.replace(
      /\s+/g,
      " ",
    ),
    {
      inputTokens,
      contextWindow,
      maxTokens,
      statusCode: error.statusCode,
      providerId: error.providerId,
      modelId: error.modelId,
      cause: error,
    },
  );
}
