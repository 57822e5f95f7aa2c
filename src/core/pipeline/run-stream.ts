import { abortError, isAbortError, type CallSignal } from "../../internal/abort.js";
import { ProviderError } from "../errors/provider-error.js";
import type { Message } from "../messages.js";
import type { Attempt, ChatModelOutput, ProviderOutput } from "../output.js";
import type { ChatModelChunk } from "../stream/chat-model-chunk.js";
import { StreamAssembler } from "../stream/stream-assembler.js";
import type { CallHost } from "./call-host.js";
import { attemptOf, settleAttempt } from "./settle-attempt.js";
import { messageContent } from "./finalize-output.js";
import type { PreparedCall } from "./prepare-call.js";
import type { CallState } from "./request-with-retry.js";
import { requestWithRetry } from "./request-with-retry.js";

/**
 * A streamed call. Chunks reach the caller as they arrive (on the tool-union rungs the raw JSON is
 * held back and the calls come whole at the end). Transport errors are retried only until the
 * first chunk arrives; after that the error carries the partial output. A re-ask yields `reset`.
 */
export async function* runStream(
  host: CallHost,
  call: PreparedCall,
  linked: CallSignal,
): AsyncGenerator<ChatModelChunk, ChatModelOutput> {
  const { signal } = linked;
  const state: CallState = { call, requests: 0, learned: false };
  const attempts: Attempt[] = [];
  let guidance: Message[] = [];
  let stopped = false;
  const stop = () => {
    stopped = true;
    linked.abort();
  };
  for (let repairs = 0; ; repairs++) {
    const holdBack = state.call.plan.readsUnion || state.call.rules.structureTool !== undefined;
    const assembler = new StreamAssembler();
    const { iterator, first } = await requestWithRetry(host, state, guidance, signal, async (input, context) => {
      const opened = host.requestStream(input, context)[Symbol.asyncIterator]();
      return { iterator: opened, first: await opened.next() };
    });
    let result = first;
    try {
      while (!result.done) {
        const chunk = result.value;
        assembler.add(chunk);
        if (isDelta(chunk) && !(holdBack && chunk.type !== "reasoning-delta")) {
          if (host.emitter.listenerCount("newToken") > 0) {
            host.emitter.emit("newToken", { input: call.input, chunk, abort: stop });
          }
          yield chunk;
          if (stopped) break;
        }
        result = await iterator.next();
      }
    } catch (error) {
      if (stopped) return partialOutput(assembler.output(), state.call, attempts);
      if (signal.aborted || isAbortError(error)) throw abortError(signal);
      if (ProviderError.isInstance(error)) Object.assign(error, { partialOutput: assembler.output() });
      throw error;
    } finally {
      if (!result.done) await iterator.return?.().catch(() => undefined);
    }
    if (stopped) return partialOutput(assembler.output(), state.call, attempts);
    // Some SDKs end a stream quietly when its signal aborts (openai, the AWS event stream): an abort, not a finish.
    if (signal.aborted) throw abortError(signal);
    const raw = assembler.output();
    const settled = settleAttempt(host, state.call, raw, attempts, repairs);
    if (settled.output) {
      for (const toolCall of settled.output.toolCalls) yield { type: "tool-call", toolCall };
      yield { type: "finish", finishReason: settled.output.finishReason, usage: settled.output.usage };
      return settled.output;
    }
    guidance = settled.guidance;
    yield { type: "reset", reason: settled.error.message };
  }
}

function isDelta(chunk: ChatModelChunk): boolean {
  return chunk.type === "text-delta" || chunk.type === "reasoning-delta" || chunk.type === "tool-call-delta";
}

/** The output of a stream a `newToken` listener stopped: what arrived, unvalidated, finish reason "other". */
function partialOutput(raw: ProviderOutput, call: PreparedCall, attempts: Attempt[]): ChatModelOutput {
  attempts.push(attemptOf({ ...raw, finishReason: "other" }));
  const text = raw.text ?? "";
  const reasoning = raw.reasoning ?? "";
  return {
    message: { role: "assistant", content: messageContent(text, reasoning, raw.reasoningSignature, []) },
    text,
    toolCalls: [],
    reasoning,
    finishReason: "other",
    usage: attempts[attempts.length - 1]!.usage,
    raw: raw.raw,
    meta: { toolChoice: call.plan.rung, repairs: [], attempts, cacheHit: false },
  };
}
