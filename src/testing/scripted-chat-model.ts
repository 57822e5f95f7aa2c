import { ChatModel } from "../core/model/chat-model.js";
import type { ChatModelOptions } from "../core/model/chat-model-options.js";
import { ProviderError } from "../core/errors/provider-error.js";
import type { ProviderInput, RunContext } from "../core/input.js";
import type { ProviderOutput } from "../core/output.js";
import { parseRetryAfter } from "../core/retry/parse-retry-after.js";
import type { ChatModelChunk } from "../core/stream/chat-model-chunk.js";
import { StreamAssembler } from "../core/stream/stream-assembler.js";
import { delay } from "../internal/abort.js";
import { reAskLead } from "../core/call/index.js";
import type { AnswerStep, ErrorSpec, ScriptedStep, StreamStep } from "./scripted-steps.js";

export interface ScriptedChatModelOptions extends ChatModelOptions {
  /** @default "scripted" */
  modelId?: string | undefined;
}

/** A recorded provider input: what a real provider would have been sent (the signal left out). */
export type RecordedCall = Omit<ProviderInput, "signal">;

/** Scripted models made so far in this process. */
let scriptedModels = 0;

/**
 * A real adapter that plays a script, for unit-testing agent code without a network. It goes
 * through the same pipeline as every provider; `calls` records what reached it.
 */
export class ScriptedChatModel extends ChatModel {
  readonly providerId = "scripted";
  readonly calls: RecordedCall[] = [];
  private readonly steps: ScriptedStep[];
  /** Each scripted model (and its clones) is its own endpoint: what one script refused teaches no other. */
  private readonly ownScope = `scripted-${++scriptedModels}`;

  constructor(steps: ScriptedStep[], options: ScriptedChatModelOptions = {}) {
    const { modelId = "scripted", ...rest } = options;
    super(modelId, rest, {
      toolChoiceSupport: ["auto", "none", "required", "single"],
      supportsStructuredOutput: true,
      supportsTopLevelUnion: true,
      supportsResponseFormatWithTools: true,
    });
    if (!Array.isArray(steps))
      throw new TypeError("ScriptedChatModel expects an array of steps (textStep, toolCallStep, …).");
    this.steps = [...steps];
  }

  protected override get capabilityScope(): string {
    return this.ownScope;
  }

  /** Steps not played yet. */
  get remainingSteps(): number {
    return Math.max(0, this.steps.length - this.calls.length);
  }

  protected override async _create(input: ProviderInput, context: RunContext): Promise<ProviderOutput> {
    const step = await this.next(input, context);
    if (step.type === "stream") {
      // The reply the same chunks make when streamed: tool calls, reasoning, usage and finish reason too.
      if (step.error) throw toError(step.error, this.modelId);
      const assembler = new StreamAssembler();
      for (const chunk of step.chunks) assembler.add(chunk);
      return assembler.output();
    }
    return outputOf(step);
  }

  protected override async *_createStream(input: ProviderInput, context: RunContext): AsyncIterable<ChatModelChunk> {
    const step = await this.next(input, context);
    if (step.type === "stream") {
      for (const chunk of step.chunks) {
        context.signal.throwIfAborted();
        yield chunk;
        await Promise.resolve();
      }
      if (step.error) throw toError(step.error, this.modelId);
      return;
    }
    yield* chunksOf(step);
  }

  private async next(input: ProviderInput, context: RunContext): Promise<AnswerStep | StreamStep> {
    const { signal: _signal, ...recorded } = input;
    const index = this.calls.length;
    this.calls.push(structuredClone(recorded));
    let step = this.steps[index];
    if (step === undefined) {
      throw new Error(
        `ScriptedChatModel ran out of steps: the script has ${this.steps.length} step(s) and request ${index + 1} asked for another. ` +
          whyRequested(this.calls, index, context.attempt) +
          "Add a step for every request the code under test makes (repairs and retries are requests too).",
      );
    }
    if (typeof step === "function") step = await step(input, context);
    if (typeof step === "function") throw new TypeError("A function step must return a step, not another function.");
    if (step.delayMs) await delay(step.delayMs, context.signal);
    if (step.type === "error") throw toError(step.error, this.modelId);
    return step;
  }
}

/** What made request `index` (keelson's re-ask, a transport retry, or the code under test), so a short script is easy to fix. */
function whyRequested(calls: readonly RecordedCall[], index: number, attempt: number): string {
  const last = calls[index]?.messages.at(-1);
  if (last?.role === "user" && typeof last.content === "string" && last.content.startsWith(reAskLead)) {
    const problem = last.content.slice(reAskLead.length).split("\n")[0];
    return `It is keelson re-asking, because the previous reply could not be used: ${problem} `;
  }
  const previous = calls[index - 1];
  if (previous === undefined || JSON.stringify(previous) !== JSON.stringify(calls[index])) return "";
  // The attempt counts the requests of one call: past 1 with the same input, keelson retried after an error.
  if (attempt > 1)
    return `It repeats request ${index}: keelson retried it after a transport error (attempt ${attempt}). `;
  return (
    `It is a new call from the code under test with the same input as request ${index} (no retry: keelson sent it once). ` +
    "If the code calls the model again on purpose, add a step for it; if not, look for the second create()/createStream(). "
  );
}

function outputOf(step: AnswerStep): ProviderOutput {
  const output: ProviderOutput = {
    text: step.text ?? "",
    reasoning: step.reasoning,
    usage: step.usage ?? { inputTokens: 10, outputTokens: 5 },
    finishReason: step.finishReason,
    raw: { scripted: true },
  };
  if (step.type === "tool-calls") {
    output.toolCalls = step.calls.map((call) => ({ id: call.id, name: call.name, args: call.args }));
    output.finishReason ??= "tool-calls";
  }
  // As the same step streamed reports it (its finish chunk), so create and createStream agree.
  output.finishReason ??= "stop";
  return output;
}

function* chunksOf(step: AnswerStep): Iterable<ChatModelChunk> {
  if (step.reasoning) yield { type: "reasoning-delta", text: step.reasoning };
  const text = step.text ?? "";
  for (const piece of step.chunks ?? text.match(/\S+\s*|\s+/g) ?? []) yield { type: "text-delta", text: piece };
  if (step.type === "tool-calls") {
    for (const [index, call] of step.calls.entries()) {
      const args = typeof call.args === "string" ? call.args : JSON.stringify(call.args);
      const half = Math.ceil(args.length / 2);
      yield {
        type: "tool-call-delta",
        index,
        name: call.name,
        ...(call.id ? { id: call.id } : {}),
        argsDelta: args.slice(0, half),
      };
      yield { type: "tool-call-delta", index, argsDelta: args.slice(half) };
    }
  }
  const output = outputOf(step);
  yield { type: "finish", finishReason: output.finishReason ?? "stop", usage: output.usage!, raw: output.raw };
}

function toError(spec: Error | ErrorSpec, modelId: string): Error {
  if (spec instanceof Error) return spec;
  return new ProviderError(spec.message ?? `Scripted provider error ${spec.statusCode}`, {
    statusCode: spec.statusCode,
    retryAfterMs: parseRetryAfter(spec.headers),
    code: spec.code,
    isRetryable: spec.isRetryable,
    providerId: "scripted",
    modelId,
    rejectedParameter:
      spec.rejectedParameter ??
      (spec.rejectedToolChoice ? { name: "tool_choice", value: spec.rejectedToolChoice } : undefined),
  });
}
