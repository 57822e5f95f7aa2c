import type { ProviderInput, RunContext } from "../input.js";
import type { ProviderOutput } from "../output.js";
import type { ChatModelChunk } from "../stream/chat-model-chunk.js";

/**
 * A model's two requests to its provider, as a call sends them: the adapter's `_create` and
 * `_createStream`, with the model's middleware composed around them.
 */
export interface ProviderRequests {
  create(input: ProviderInput, context: RunContext): Promise<ProviderOutput>;
  stream(input: ProviderInput, context: RunContext): AsyncIterable<ChatModelChunk>;
}
