import { callError, type CallSignal } from "../../internal/abort.js";
import type { ChatModelEvents } from "../events.js";
import type { ChatModelInput } from "../input.js";
import type { ChatModelOutput } from "../output.js";
import type { ChatModelChunk } from "../stream/chat-model-chunk.js";
import { callEnd, type CallEnd, type StreamFinal, type StreamRun } from "../stream/chat-model-stream.js";

export type EmitCallEvent = <E extends "success" | "error" | "finish">(
  event: E,
  payload: Parameters<ChatModelEvents[E]>[0],
) => void;

/** A streamed call's chunks, and whether they settle the call themselves (through the CallEnd given). */
export interface StartedChunks {
  chunks: AsyncIterator<ChatModelChunk, ChatModelOutput>;
  settlesItself: boolean;
}

/**
 * A streamed call as its ChatModelStream drives it: the chunks, and a settle that runs once —
 * success, error or a consumer that stopped reading (an abort) — emitting the closing events and
 * releasing the call's signal. Chunks that settle the call themselves get the means to (a CallEnd).
 * A call that fails before its first request fails on the first read.
 */
export function streamRun(
  input: ChatModelInput,
  callId: number,
  linked: CallSignal,
  emit: EmitCallEvent,
  final: StreamFinal,
  start: (end: CallEnd) => StartedChunks,
): StreamRun {
  let settled = false;
  const settle: StreamRun["settle"] = (outcome) => {
    if (settled) return undefined;
    settled = true;
    try {
      if ("output" in outcome) {
        emit("success", { input, callId, output: outcome.output });
        emit("finish", { input, callId, output: outcome.output });
        return undefined;
      }
      let error: Error;
      if ("closed" in outcome) {
        linked.abort();
        error = new DOMException("The stream was closed by its consumer", "AbortError");
      } else error = callError(outcome.error, linked.signal);
      emit("error", { input, callId, error });
      emit("finish", { input, callId, error });
      return error;
    } finally {
      linked.dispose();
    }
  };
  try {
    const { chunks, settlesItself } = start(callEnd(settle, final));
    return { chunks, settle, settlesItself };
  } catch (error) {
    return { chunks: failedStream(error), settle };
  }
}

/** A stream whose call failed before it started (bad input, an aborted signal). */
// eslint-disable-next-line require-yield
async function* failedStream(error: unknown): AsyncGenerator<never, never> {
  throw error;
}
