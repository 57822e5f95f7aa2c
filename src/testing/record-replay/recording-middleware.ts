import type { ChatModelMiddleware } from "../../core/middleware/chat-model-middleware.js";
import type { ProviderInput } from "../../core/input.js";
import { ProviderError } from "../../core/errors/provider-error.js";
import type { ChatModelChunk } from "../../core/stream/chat-model-chunk.js";
import type { CassetteInteraction } from "./cassette.js";

/** Where a recording goes: one exchange at a time (its provider input, and its answer or error). */
export type RecordExchange = (input: ProviderInput, answer: Omit<CassetteInteraction, "input">) => void;

/**
 * Record as middleware: each request (retries and re-asks included) is passed on, and what came
 * back — the output, a stream's chunks, or the error — is handed to `record` with the input sent.
 */
export function recordingMiddleware(record: RecordExchange): ChatModelMiddleware {
  return {
    name: "record",
    async wrapCreate({ input, next }) {
      try {
        const output = await next();
        record(input, { output: { ...output, raw: output.raw } });
        return output;
      } catch (error) {
        record(input, { error: describeError(error) });
        throw error;
      }
    },
    async *wrapStream({ input, next }) {
      const chunks: ChatModelChunk[] = [];
      try {
        for await (const chunk of next()) {
          chunks.push(chunk);
          yield chunk;
        }
        record(input, { chunks });
      } catch (error) {
        record(input, { chunks, error: describeError(error) });
        throw error;
      }
    },
  };
}

function describeError(error: unknown): NonNullable<CassetteInteraction["error"]> {
  const described: NonNullable<CassetteInteraction["error"]> = {
    name: error instanceof Error ? error.name : "Error",
    message: error instanceof Error ? error.message : String(error),
  };
  if (ProviderError.isInstance(error)) {
    if (error.statusCode !== undefined) described.statusCode = error.statusCode;
    if (error.code !== undefined) described.code = error.code;
    described.reason = error.reason;
    described.isRetryable = error.isRetryable;
    if (error.rejectedParameter !== undefined) described.rejectedParameter = { ...error.rejectedParameter };
  }
  return described;
}
