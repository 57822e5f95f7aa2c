/**
 * The cases of the adapter conformance suite, by id, with what each one shows. An adapter names
 * the ones it cannot have in `AdapterConformanceOptions.skip`, with the reason.
 */
export const conformanceCases = {
  /** `scenarios.text`: the recorded text, finish reason and usage; a stream's text in several deltas. */
  text: "should return the recorded text, finish reason and usage",
  /** `scenarios.toolCall`: one tool call, its arguments parsed, the tools sent. */
  "tool-call": "should return one tool call with parsed arguments",
  /** Every recorded tool call keeps the provider's own id (skip it for a provider that has none). */
  "tool-call-ids": "should keep the provider's tool-call ids",
  /** `scenarios.parallelToolCalls`: several calls in one reply, in order, with distinct ids. */
  "parallel-tool-calls": "should return parallel tool calls in order, each with its own id",
  /** `scenarios.streamedToolCallArgs` (streams only): argument deltas before the validated call. */
  "streamed-tool-call-args": "should stream tool-call arguments split across chunks and merge them",
  /** `scenarios.finishReasons`: the provider's finish reasons mapped. */
  "finish-reasons": "should map the provider's finish reasons",
  /** `scenarios.errors`: a ProviderError with status, reason, retryability and the SDK error as cause. */
  errors: "should raise a ProviderError for the provider's errors",
  /** A failed attempt (the `retryableError`, a dropped connection) is retried once, then answered. */
  retry: "should retry a failed attempt and return the next answer",
  /** Under a server that always fails: exactly `maxRetries + 1` requests, so no SDK retries its own. */
  "no-sdk-retries": "should send exactly maxRetries + 1 requests when every attempt fails",
  /** An abort during the request settles the call promptly with an AbortError. */
  abort: "should settle promptly with an AbortError when aborted during the request",
  /** An abort once the answer has started (a stream's first delta arrived, then the body stalled) ends in an AbortError, not a finish. */
  "abort-mid-response": "should end with an AbortError, not a finish, when aborted after the answer started",
  /** `toolChoice: "required"` without native support goes through the response format. */
  "response-format-rung": "should force a tool through the response format when 'required' is unsupported",
  /**
   * Tools and a response format under "auto": the answer comes back as `output.object` with no tool
   * calls, on the adapter's own rung and on the tool-union rung (the answer one more union variant).
   */
  "tools-and-answer": "should return the final answer as the object when tools and a response format go together",
  /** `model.clone()` answers the same scenario with the same request (state in plain fields). */
  clone: "should answer the same scenario from a clone() with the same request",
} as const;

/** The id of one case of the adapter conformance suite (see `conformanceCases`). */
export type ConformanceCaseId = keyof typeof conformanceCases;
