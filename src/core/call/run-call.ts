import type { CallDependencies } from "./call-dependencies.js";
import { throwIfAborted, type CallSignal } from "../../internal/abort.js";
import type { ChatModelError } from "../errors/chat-model-error.js";
import { EmptyResponseError } from "../errors/empty-response-error.js";
import { ProviderError } from "../errors/provider-error.js";
import { StructuredOutputError } from "../errors/structured-output-error.js";
import { ToolCallError } from "../errors/tool-call-error.js";
import type { ProviderInput, RunContext } from "../input.js";
import type { Message } from "../messages.js";
import type { Attempt, ChatModelOutput, ProviderOutput, Repair } from "../output.js";
import { withTransportRetry } from "../retry/with-transport-retry.js";
import type { ChatModelChunk } from "../stream/chat-model-chunk.js";
import { StreamedAttempt, type CallRun } from "./call-chunks.js";
import type { LearnedCapabilities } from "../capabilities/learned-capabilities.js";
import { learnedEntry, learnedFor, firstAnnouncement } from "../capabilities/learned-capabilities.js";
import { projectInputSchemas } from "../schema/project-schema.js";
import { learnedMessage, recordRefusal, refusalKey, refusalOf, withoutRefusedFields } from "../capabilities/refusal.js";
import { providerInput } from "./prepare-call.js";
import type { PreparedCall } from "./prepared-call.js";
import { attemptOf, completeOutput, finalizeOutput, partialOutput } from "./read-reply.js";
import { repairGuidance } from "./repair-guidance.js";
import { readFromText, textCallHoldBack } from "./read-text-tool-calls.js";
import { priced } from "../profiles/model-pricing.js";

/** A call's attempts so far: the call (prepared again once it learned from a refusal) and its requests. */
interface CallState {
  call: PreparedCall;
  /** Requests made so far in this call (transport retries and repairs alike). */
  requests: number;
  /** The facts this call learned (each at most once: a loop of refusals ends). */
  learned: Set<string>;
}

/**
 * One call, read top to bottom: each attempt is sent with transport retries (a refused tool_choice
 * learned from once, on the way), its reply settled into the caller's output — or, when unusable
 * and the repair budget has room, re-asked with temporary guidance. `create()` takes the return
 * value (nothing is yielded); `createStream()` reads it through `callChunks`: each streamed attempt
 * is yielded, for its chunks to be read from it as they arrive (on the tool-union rungs the raw JSON
 * is held back), then a `reset` before a re-ask, the validated tool calls and the finish at the end.
 * A stream's transport errors are retried until its first chunk.
 */
export async function* runCall(
  model: CallDependencies,
  call: PreparedCall,
  linked: CallSignal,
  streamed: boolean,
): CallRun {
  const state: CallState = { call, requests: 0, learned: new Set() };
  const attempts: Attempt[] = [];
  let guidance: Message[] = [];
  for (let repairs = 0; ; repairs++) {
    let raw: ProviderOutput;
    // A stream's text held back while it might be a tool call written as text: shown unless it was one.
    let held = "";
    if (streamed) {
      const attempt = new StreamedAttempt(model, linked);
      const opened = await send(model, state, guidance, linked.signal, attempt.open);
      // After the request: a refused tool_choice learned on the way may have moved the call to another rung.
      attempt.readsFor(state.call, holdsBack(state.call), opened, textCallHoldBack(state.call));
      try {
        // Read by callChunks, to the provider stream's end or a stop; a failed read is thrown here.
        yield attempt;
      } finally {
        // Lets go of the provider's stream when it was left before its end (what it throws on the way out does not matter).
        if (!attempt.ranOut) await attempt.letGo();
      }
      if (attempt.stopped) {
        const stopped = partialOutput(attempt.assembler.output(), state.call, attempts);
        priced(stopped.usage, model.settings.profile?.pricing);
        return stopped;
      }
      // Some SDKs end a stream quietly when its signal aborts (openai, the AWS event stream): an abort, not a finish.
      throwIfAborted(linked.signal);
      raw = attempt.assembler.output();
      held = attempt.heldText();
    } else {
      raw = await send(model, state, guidance, linked.signal, (input, context) =>
        model.provider.create(input, context),
      );
    }
    const settled = settle(model, state.call, raw, attempts, repairs);
    if ("output" in settled) {
      if (streamed) yield* closingChunks(settled.output, holdsBack(state.call), held);
      return settled.output;
    }
    guidance = settled.guidance;
    if (streamed) yield { type: "reset", reason: settled.error.message };
  }
}

/**
 * Sends one attempt with transport retries. A provider's 400 that refuses part of the request (a
 * tool_choice value, the JSON-schema response format, a parameter, a field keelson adds) is learned
 * from, and the same attempt goes again without it — on the next rung — spending no retry.
 */
async function send<T>(
  model: CallDependencies,
  state: CallState,
  guidance: readonly Message[],
  signal: AbortSignal,
  request: (input: ProviderInput, context: RunContext) => Promise<T>,
): Promise<T> {
  const result = await withTransportRetry(
    async () => {
      // Bounded: each pass learns a fact this call had not learned yet, or throws.
      for (;;) {
        const learned = learnedFor(model.scope);
        const input = projectedInput(
          model,
          state,
          withoutRefusedFields(providerInput(state.call, guidance, signal), learned),
          learned,
        );
        state.requests++;
        try {
          return await request(input, {
            signal,
            attempt: state.requests,
            call: state.call,
            rung: state.call.plan.rung,
          });
        } catch (error) {
          if (!learnFrom(model, state, error, input)) throw error;
        }
      }
    },
    signal,
    state.call.maxRetries,
    {
      ...model.retry,
      onRetry: (attempt, error, delayMs) => {
        const { input, callId } = state.call;
        if (model.emitter.listens("retry")) model.emitter.emit("retry", { input, callId, attempt, error, delayMs });
      },
    },
  );
  // A call whose signal aborted while its request (or a retry of it) came back ends with the AbortError.
  throwIfAborted(signal);
  return result;
}

/**
 * The request's schemas in the form the adapter declared, without the keywords its provider refused
 * (arguments are still validated against the original schemas); a `warning` once per process names,
 * per tool, what was changed.
 */
function projectedInput(model: CallDependencies, state: CallState, input: ProviderInput, learned: LearnedCapabilities) {
  const { changed } = projectInputSchemas(input, model.settings.schemaForm, learned.schemaKeywords);
  for (const [name, changes] of changed) {
    if (!model.emitter.listens("warning") || !firstAnnouncement(model.scope, `schema:${name}:${changes.join()}`))
      continue;
    const message = `${model.settings.providerId} ${model.settings.modelId}: the schema of ${name.startsWith("response format") ? name : `tool '${name}'`} was sent in the form the provider accepts: ${changes.join("; ")}. Arguments are still validated against the original schema.`;
    model.emitter.emit("warning", {
      input: state.call.input,
      callId: state.call.callId,
      code: "schema-projected",
      message,
    });
  }
  return input;
}

/**
 * Learning from a refusal: a provider's 400 that refused part of what this request sent is recorded
 * for the model's endpoint and model, for the whole process (a `warning` says so once per process),
 * and the call is prepared again with what was learned. Once per fact per call; false when there
 * is nothing to learn.
 */
function learnFrom(model: CallDependencies, state: CallState, error: unknown, sent: ProviderInput): boolean {
  if (!ProviderError.isInstance(error)) return false;
  const refusal = refusalOf(error, sent);
  if (!refusal) return false;
  const key = refusalKey(refusal);
  if (state.learned.has(key)) return false;
  state.learned.add(key);
  const { call } = state;
  const learned: LearnedCapabilities = learnedEntry(model.scope);
  // A call in flight when another one learned the same refusal finds it known: it only moves on.
  if (recordRefusal(learned, refusal) && firstAnnouncement(model.scope, key)) {
    const { settings } = model;
    const message = learnedMessage(`${settings.providerId} ${settings.modelId}`, refusal, error, settings);
    const code = refusal.kind === "tool-choice" ? "learned-tool-choice" : "learned-capability";
    if (model.emitter.listens("warning"))
      model.emitter.emit("warning", { input: call.input, callId: call.callId, code, message });
  }
  state.call = model.prepare(call.input, call.callId);
  return true;
}

/** An unusable reply that a re-ask may fix. */
function isOutputError(error: unknown): error is ChatModelError {
  return (
    ToolCallError.isInstance(error) || EmptyResponseError.isInstance(error) || StructuredOutputError.isInstance(error)
  );
}

/**
 * Settles one attempt: its output made final, or — when unusable and the repair budget has room —
 * the guidance for a re-ask (the `repair` event emitted). Past the budget the error is thrown.
 */
function settle(
  model: CallDependencies,
  call: PreparedCall,
  raw: ProviderOutput,
  attempts: Attempt[],
  repairsDone: number,
): { output: ChatModelOutput } | { guidance: Message[]; error: ChatModelError } {
  try {
    const repairs: Repair[] = [];
    const final = finalizeOutput(raw, call.rules, repairs);
    attempts.push(attemptOf(raw, undefined, final.usage));
    const output = completeOutput(final, repairs, call, attempts);
    priced(output.usage, model.settings.profile?.pricing);
    return { output };
  } catch (error) {
    if (!isOutputError(error)) throw error;
    attempts.push(attemptOf(raw, error.message));
    if (repairsDone >= model.maxRepairAttempts) throw error;
    if (model.emitter.listens("repair"))
      model.emitter.emit("repair", { input: call.input, callId: call.callId, attempt: attempts.length, error });
    return { guidance: repairGuidance(error, call.plan.allowedTools), error };
  }
}

/** On the tool-union rungs (and for a structured answer carried by a forced tool) the raw JSON is not shown. */
function holdsBack(call: PreparedCall): boolean {
  return call.plan.readsUnion || call.rules.structureTool !== undefined;
}

/** A settled stream's last chunks: the held-back text (a structured answer, or text that was no call), the validated calls, the finish. */
function* closingChunks(
  output: ChatModelOutput,
  holdBack: boolean,
  held: string,
): Generator<ChatModelChunk, void, undefined> {
  if (holdBack && output.text !== "") yield { type: "text-delta", text: output.text };
  if (held !== "" && !readFromText(output)) yield { type: "text-delta", text: held };
  for (const toolCall of output.toolCalls) yield { type: "tool-call", toolCall };
  yield { type: "finish", finishReason: output.finishReason, usage: output.usage };
}
