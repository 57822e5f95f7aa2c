import { ChatModel, nextCallId } from "../core/model/chat-model.js";
import type { ChatModelEvents } from "../core/events.js";
import type { ChatModelInput, InferResponseFormatOutput, ProviderInput, ResponseFormat } from "../core/input.js";
import type { ChatModelOutput, ModelRef, ProviderOutput } from "../core/output.js";
import type { ChatModelChunk } from "../core/stream/chat-model-chunk.js";
import type { AnyTool, ToolCallOf } from "../core/tool.js";
import { ChatModelStream } from "../core/stream/chat-model-stream.js";
import { isAbortError } from "../internal/abort.js";
import { fallsOver } from "./falls-over.js";
import { FallbackStream } from "./fallback-stream.js";
import { forwardMemberEvents } from "./forward-member-events.js";
import type { MemberTurn } from "./member-turn.js";
import type { WithFallbacksOptions } from "./with-fallbacks-options.js";

/**
 * The model `withFallbacks` returns. It runs each call through its members' own `create` /
 * `createStream` (their pipelines, capabilities, retries and caches), in order.
 */
export class FallbackChatModel extends ChatModel {
  readonly providerId = "fallbacks";
  /** The members, in the order they are tried. */
  readonly models: readonly ChatModel[];
  readonly cooldownMs: number;
  /** Per member that failed, when its cooldown ends (Date.now() time). */
  private readonly coolingUntil = new Map<ChatModel, number>();

  constructor(models: readonly ChatModel[], options: WithFallbacksOptions = {}) {
    if (!Array.isArray(models) || models.length === 0 || !models.every(isChatModel)) {
      throw new TypeError(
        "withFallbacks expects a non-empty array of models, e.g. withFallbacks([primary, fallback]).",
      );
    }
    const { cooldownMs = 30_000 } = options;
    if (typeof cooldownMs !== "number" || !(cooldownMs >= 0)) {
      throw new TypeError(`cooldownMs must be a non-negative number of milliseconds, got ${String(cooldownMs)}.`);
    }
    const primary = models[0]!;
    super(models.map((model) => `${model.providerId}:${model.modelId}`).join(", "), {}, primary);
    this.models = [...models];
    this.cooldownMs = cooldownMs;
  }

  override create<
    Tools extends readonly AnyTool[] = readonly AnyTool[],
    Format extends ResponseFormat = ResponseFormat,
  >(
    input: ChatModelInput<Tools, Format>,
  ): Promise<ChatModelOutput<ToolCallOf<Tools[number]>, InferResponseFormatOutput<Format>>> {
    // Each member validated the calls against the tools given (and the object), as ChatModel.create does.
    return this.createThroughMembers(input) as Promise<
      ChatModelOutput<ToolCallOf<Tools[number]>, InferResponseFormatOutput<Format>>
    >;
  }

  private async createThroughMembers(input: ChatModelInput): Promise<ChatModelOutput> {
    const callId = nextCallId();
    this.emit("start", { input, callId });
    try {
      const output = await this.runCall(input, callId, (turn) =>
        turn.model.create(turn.input).finally(turn.stopForwarding),
      );
      this.emit("success", { input, callId, output });
      this.emit("finish", { input, callId, output });
      return output;
    } catch (caught) {
      const error = caught instanceof Error ? caught : new Error(String(caught));
      this.emit("error", { input, callId, error });
      this.emit("finish", { input, callId, error });
      throw error;
    }
  }

  override createStream<
    Tools extends readonly AnyTool[] = readonly AnyTool[],
    Format extends ResponseFormat = ResponseFormat,
  >(
    input: ChatModelInput<Tools, Format>,
  ): ChatModelStream<ToolCallOf<Tools[number]>, InferResponseFormatOutput<Format>> {
    return new ChatModelStream<ToolCallOf<Tools[number]>, InferResponseFormatOutput<Format>>(() => ({
      chunks: this.streamOnMembers(input),
    }));
  }

  /** A streamed call on its members, its events emitted once (a consumer that stops early ends it with an AbortError). */
  private async *streamOnMembers(input: ChatModelInput): AsyncGenerator<ChatModelChunk, ChatModelOutput, undefined> {
    const callId = nextCallId();
    this.emit("start", { input, callId });
    const stream = new FallbackStream((open) => this.runCall(input, callId, open));
    let settled = false;
    try {
      for (;;) {
        const result = await stream.next();
        if (result.done) {
          settled = true;
          stream.stopForwarding();
          this.emit("success", { input, callId, output: result.value });
          this.emit("finish", { input, callId, output: result.value });
          return result.value;
        }
        yield result.value;
      }
    } catch (caught) {
      settled = true;
      stream.stopForwarding();
      const error = caught instanceof Error ? caught : new Error(String(caught));
      this.emit("error", { input, callId, error });
      this.emit("finish", { input, callId, error });
      throw error;
    } finally {
      if (!settled) {
        stream.stopForwarding();
        await stream.return?.().catch(() => undefined);
        const error = new DOMException("The stream was closed by its consumer", "AbortError");
        this.emit("error", { input, callId, error });
        this.emit("finish", { input, callId, error });
      }
    }
  }

  /** Its members run its calls; the base class's pipeline never does. */
  protected override _create(_input: ProviderInput): Promise<ProviderOutput> {
    return Promise.reject(new TypeError("A FallbackChatModel's calls go through its members' create()."));
  }

  // eslint-disable-next-line require-yield
  protected override async *_createStream(_input: ProviderInput): AsyncIterable<ChatModelChunk> {
    throw new TypeError("A FallbackChatModel's calls go through its members' createStream().");
  }

  /**
   * Runs one call: `attempt` on each member in turn (those cooling down last) until one answers or
   * fails with an error no other member could answer.
   */
  private async runCall<T>(
    input: ChatModelInput,
    callId: number,
    attempt: (turn: MemberTurn) => Promise<T>,
  ): Promise<T> {
    const deadline = typeof input?.timeout === "number" ? performance.now() + input.timeout : undefined;
    const order = this.memberOrder();
    for (let index = 0; ; index++) {
      const model = order[index]!;
      const memberInput: ChatModelInput =
        deadline === undefined ? { ...input } : { ...input, timeout: Math.max(0, deadline - performance.now()) };
      const stopForwarding = forwardMemberEvents(model, memberInput, input, callId, this.emit.bind(this) as Emit);
      try {
        const result = await attempt({ model, input: memberInput, stopForwarding });
        this.coolingUntil.delete(model);
        return result;
      } catch (error) {
        stopForwarding();
        const next = order[index + 1];
        if (!fallsOver(error) || isAbortError(error) || input?.signal?.aborted) throw error;
        this.coolingUntil.set(model, Date.now() + Math.max(this.cooldownMs, error.retryAfterMs ?? 0));
        if (next === undefined) throw error;
        this.emit("fallback", {
          input,
          callId,
          failed: refOf(model),
          next: refOf(next),
          error,
          reason: `${model.providerId} ${model.modelId} failed (${error.reason}${error.statusCode === undefined ? "" : ` ${error.statusCode}`}): ${error.message} Trying ${next.providerId} ${next.modelId}.`,
        });
      }
    }
  }

  /** The members in order, those cooling down after the others (the soonest to end first). */
  private memberOrder(): ChatModel[] {
    const now = Date.now();
    const until = (model: ChatModel) => this.coolingUntil.get(model) ?? 0;
    const ready = this.models.filter((model) => until(model) <= now);
    const cooling = this.models.filter((model) => until(model) > now).sort((a, b) => until(a) - until(b));
    return [...ready, ...cooling];
  }
}

type Emit = <E extends keyof ChatModelEvents>(event: E, payload: Parameters<ChatModelEvents[E]>[0]) => void;

function refOf(model: ChatModel): ModelRef {
  return { providerId: model.providerId, modelId: model.modelId };
}

function isChatModel(value: unknown): value is ChatModel {
  const model = value as Partial<ChatModel> | null;
  return (
    typeof model?.create === "function" &&
    typeof model.createStream === "function" &&
    typeof model.providerId === "string" &&
    typeof model.modelId === "string"
  );
}
