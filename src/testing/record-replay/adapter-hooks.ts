import type { ChatModel } from "../../core/chat-model.js";
import type { ProviderInput, RunContext } from "../../core/input.js";
import type { ProviderOutput } from "../../core/output.js";
import type { ChatModelChunk } from "../../core/stream/chat-model-chunk.js";
import type { Cassette } from "./cassette.js";

/** A model's adapter hooks, reached from a wrapper in the same package. */
export interface AdapterHooks {
  _create(input: ProviderInput, context: RunContext): Promise<ProviderOutput>;
  _createStream(input: ProviderInput, context: RunContext): AsyncIterable<ChatModelChunk>;
  readonly endpoint: string;
}

export function hooksOf(model: ChatModel): AdapterHooks {
  return model as unknown as AdapterHooks;
}

/** The capability profile of a model, as a cassette keeps it. */
export function profileOf(model: ChatModel): Cassette["profile"] {
  return {
    toolChoiceSupport: [...model.toolChoiceSupport],
    supportsToolCalling: model.supportsToolCalling,
    supportsStructuredOutput: model.supportsStructuredOutput,
    supportsTopLevelUnion: model.supportsTopLevelUnion,
    strictResponseFormat: model.strictResponseFormat,
  };
}
