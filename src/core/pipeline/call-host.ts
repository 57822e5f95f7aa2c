import type { EventSink } from "../chat-model-emitter.js";
import type { ProviderInput, RunContext } from "../input.js";
import type { ProviderOutput } from "../output.js";
import type { ResolvedRetryOptions } from "../retry/retry-options.js";
import type { ChatModelChunk } from "../stream/chat-model-chunk.js";
import type { PreparedCall } from "./prepare-call.js";
import type { ProviderError } from "../errors/provider-error.js";

/** What the call runners need from the model: its settings, its emitter and its adapter hooks. */
export interface CallHost {
  /** The model's events, read at each use: the emitter once made (a listener added mid-call counts from then on). */
  readonly emitter: EventSink;
  readonly retry: ResolvedRetryOptions;
  readonly maxRepairAttempts: number;
  request(input: ProviderInput, context: RunContext): Promise<ProviderOutput>;
  requestStream(input: ProviderInput, context: RunContext): AsyncIterable<ChatModelChunk>;
  /**
   * Learns from a provider that refused a tool_choice value: drops it from the support set and
   * prepares the call again. Returns undefined when there is nothing to learn.
   */
  learn(error: ProviderError, call: PreparedCall): PreparedCall | undefined;
}
