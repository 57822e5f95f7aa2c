import { nextCallId } from "../core/model/chat-model.js";
import { createStructure } from "../core/model/create-structure.js";
import { ChatModelEmitter } from "../core/emitter/chat-model-emitter.js";
import { isChatModelLike, type ChatModelLike } from "../core/model/chat-model-like.js";
import type { ChatModelEvents } from "../core/events.js";
import type {
  ChatModelInput,
  InferResponseFormatOutput,
  InferSchemaOutput,
  ResponseFormat,
  StructureInput,
} from "../core/input.js";
import type { ChatModelOutput, ModelRef } from "../core/output.js";
import type { SchemaInput } from "../core/schema/schema-input.js";
import type { AnyTool, ToolCallOf } from "../core/tool.js";
import { ChatModelStream, type StreamCall } from "../core/stream/chat-model-stream.js";
import { isAbortError } from "../internal/abort.js";
import { FallbackError, type MemberFailure } from "./fallback-error.js";
import { fallsOver } from "./falls-over.js";
import { FallbackStream } from "./fallback-stream.js";
import { forwardMemberEvents } from "./forward-member-events.js";
import { LocalHealth, type CallOutcome, type HealthBook } from "./member-health.js";
import { memberOrder } from "./member-order.js";
import type { MemberTurn } from "./member-turn.js";
import { familyOf, ReasoningOrigins } from "./reasoning-origins.js";
import { checkRouterOptions, type RouterOptions, type RouterStrategy } from "./router-options.js";
import { SharedHealth } from "./shared-health.js";

type Emit = <E extends keyof ChatModelEvents>(event: E, payload: Parameters<ChatModelEvents[E]>[0]) => void;

/**
 * A model made of a group of members (`createRouter`, `withFallbacks`): each call goes to the member
 * its strategy picks and runs through that member's own `create` / `createStream` — its pipeline,
 * capabilities, tool_choice rung, learned refusals, retries and cache — and moves on to the next
 * member only for errors another one could answer. It is a model as any other to `runTools`,
 * `streamTools`, `evaluate` and `instrumentChatModel`, not a `ChatModel` with a provider of its own.
 */
export class RouterChatModel implements ChatModelLike {
  readonly providerId: string = "router";
  /** The members' `provider:model` ids, in the group's order. */
  readonly modelId: string;
  /** The members, in the group's order. */
  readonly models: readonly ChatModelLike[];
  readonly strategy: RouterStrategy;
  readonly cooldownMs: number;
  readonly #health: HealthBook;
  readonly #families: readonly string[];
  readonly #origins = new ReasoningOrigins();
  /** Calls started so far: round-robin's position. */
  #turn = 0;
  #emitter: ChatModelEmitter | undefined;

  /** @param caller The function that builds it, for the errors that name it. */
  constructor(models: readonly ChatModelLike[], options: RouterOptions = {}, caller = "createRouter") {
    if (!Array.isArray(models) || models.length === 0 || !models.every(isChatModelLike)) {
      throw new TypeError(`${caller} expects a non-empty array of models, e.g. ${caller}([primary, fallback]).`);
    }
    checkRouterOptions(options, caller);
    const { strategy = "ordered", cooldownMs = 30_000, store, storeTimeoutMs = 250 } = options;
    this.models = [...models];
    this.modelId = models.map((model) => `${model.providerId}:${model.modelId}`).join(", ");
    this.strategy = strategy;
    this.cooldownMs = cooldownMs;
    this.#families = models.map(familyOf);
    this.#health =
      store === undefined
        ? new LocalHealth(models.length)
        : new SharedHealth(store, options.name ?? this.modelId, models.length, storeTimeoutMs);
  }

  /** The router's events: its own calls' lifecycle, and its members' events of those calls. */
  get emitter(): ChatModelEmitter {
    return (this.#emitter ??= new ChatModelEmitter());
  }

  create<Tools extends readonly AnyTool[] = readonly AnyTool[], Format extends ResponseFormat = ResponseFormat>(
    input: ChatModelInput<Tools, Format>,
  ): Promise<ChatModelOutput<ToolCallOf<Tools[number]>, InferResponseFormatOutput<Format>>> {
    // The member validated the calls against the tools given (and the object), as ChatModel.create does.
    return this.#createThroughMembers(input) as Promise<
      ChatModelOutput<ToolCallOf<Tools[number]>, InferResponseFormatOutput<Format>>
    >;
  }

  createStream<Tools extends readonly AnyTool[] = readonly AnyTool[], Format extends ResponseFormat = ResponseFormat>(
    input: ChatModelInput<Tools, Format>,
  ): ChatModelStream<ToolCallOf<Tools[number]>, InferResponseFormatOutput<Format>> {
    return new ChatModelStream<ToolCallOf<Tools[number]>, InferResponseFormatOutput<Format>>(() =>
      this.#openStream(input),
    );
  }

  createStructure<S extends SchemaInput>(
    input: StructureInput<S>,
  ): Promise<{ object: InferSchemaOutput<S>; output: ChatModelOutput }> {
    return createStructure(this, input);
  }

  async #createThroughMembers(input: ChatModelInput): Promise<ChatModelOutput> {
    const callId = nextCallId();
    this.#emit("start", { input, callId });
    try {
      const output = await this.#runCall(input, callId, async (turn) => {
        try {
          const output = await turn.model.create(turn.input);
          turn.settle(undefined, output);
          return output;
        } finally {
          turn.stopForwarding();
        }
      });
      this.#emit("success", { input, callId, output });
      this.#emit("finish", { input, callId, output });
      return output;
    } catch (caught) {
      const error = caught instanceof Error ? caught : new Error(String(caught));
      this.#emit("error", { input, callId, error });
      this.#emit("finish", { input, callId, error });
      throw error;
    }
  }

  /**
   * A streamed call on its members, as its ChatModelStream reads it (no generator of its own between
   * the member's chunks and the caller): its events emitted once, the answering member's health
   * recorded when the stream ends, its request let go of when the consumer stops reading.
   */
  #openStream(input: ChatModelInput): StreamCall {
    const callId = nextCallId();
    this.#emit("start", { input, callId });
    const stream = new FallbackStream((open) => this.#runCall(input, callId, open));
    return {
      chunks: stream,
      succeeded: (output) => {
        stream.end(undefined, output);
        this.#emit("success", { input, callId, output });
        this.#emit("finish", { input, callId, output });
      },
      failed: (caught) => {
        const error = caught instanceof Error ? caught : new Error(String(caught));
        stream.end(error);
        this.#emit("error", { input, callId, error });
        this.#emit("finish", { input, callId, error });
        return error;
      },
    };
  }

  /**
   * Runs one call: `attempt` on each member in the strategy's order (resting ones last) until one
   * answers or fails with an error no other member could answer. A member's turn is settled — its
   * health recorded — by `attempt` (a stream's, when the stream ends) or here when it fails before.
   */
  async #runCall<T>(input: ChatModelInput, callId: number, attempt: (turn: MemberTurn) => Promise<T>): Promise<T> {
    const deadline = typeof input?.timeout === "number" ? performance.now() + input.timeout : undefined;
    const warnStore = (message: string) => this.#emit("warning", { input, callId, code: "router-store", message });
    const order = memberOrder(this.strategy, await this.#health.read(warnStore), this.#turn++);
    const failures: MemberFailure[] = [];
    let warnedDropped = false;
    for (let position = 0; ; position++) {
      const index = order[position]!;
      const model = this.models[index]!;
      const memberInput = this.#memberInput(input, index, deadline, (dropped) => {
        if (warnedDropped) return;
        warnedDropped = true;
        this.#emit("warning", {
          input,
          callId,
          code: "reasoning-dropped",
          message:
            `${dropped} piece(s) of reasoning another provider signed or encrypted (thinking, thought signatures) were left out of what ${describe(model)} is sent ` +
            "(it cannot read them back); the visible text and tool calls are kept, and your messages are unchanged.",
        });
      });
      const turn = this.#turnOn(index, model, memberInput, input, callId, warnStore);
      try {
        return await attempt(turn);
      } catch (error) {
        turn.stopForwarding();
        turn.settle(error);
        if (!fallsOver(error) || isAbortError(error) || input?.signal?.aborted) throw error;
        failures.push({ model: refOf(model), error: error as Error });
        const nextIndex = order[position + 1];
        if (nextIndex === undefined) {
          throw new FallbackError(failures, { providerId: this.providerId, modelId: this.modelId });
        }
        const next = this.models[nextIndex]!;
        this.#emit("fallback", {
          input,
          callId,
          failed: refOf(model),
          next: refOf(next),
          error: error as Error,
          reason: `${describe(model)} failed (${reasonOf(error)}): ${(error as Error).message} Trying ${describe(next)}.`,
        });
      }
    }
  }

  /** The caller's input as member `index` is sent it: a copy, with the call's time left and its reasoning portable. */
  #memberInput(
    input: ChatModelInput,
    index: number,
    deadline: number | undefined,
    warnDropped: (dropped: number) => void,
  ): ChatModelInput {
    const memberInput: ChatModelInput =
      deadline === undefined ? { ...input } : { ...input, timeout: Math.max(0, deadline - performance.now()) };
    const { messages, dropped } = this.#origins.portable(input?.messages, this.#families[index]!);
    if (dropped > 0) {
      memberInput.messages = messages as ChatModelInput["messages"];
      warnDropped(dropped);
    }
    return memberInput;
  }

  /** One member's turn: its events forwarded, its call counted in flight until `settle` records how it ended. */
  #turnOn(
    index: number,
    model: ChatModelLike,
    memberInput: ChatModelInput,
    input: ChatModelInput,
    callId: number,
    warnStore: (message: string) => void,
  ): MemberTurn {
    const stopForwarding = forwardMemberEvents(
      model,
      memberInput,
      { input, callId },
      this.#emitter,
      this.#emit.bind(this) as Emit,
    );
    const end = this.#health.start(index, warnStore);
    const started = performance.now();
    let settled = false;
    return {
      model,
      input: memberInput,
      stopForwarding,
      settle: (error, output) => {
        if (settled) return;
        settled = true;
        let outcome: CallOutcome;
        if (error === undefined) {
          this.#origins.remember(output?.message, this.#families[index]!);
          outcome = { kind: "answered", latencyMs: performance.now() - started };
        } else if (fallsOver(error) && !isAbortError(error)) {
          const retryAfterMs = (error as { retryAfterMs?: unknown }).retryAfterMs;
          outcome = {
            kind: "failed",
            restMs: Math.max(this.cooldownMs, typeof retryAfterMs === "number" && retryAfterMs > 0 ? retryAfterMs : 0),
          };
        } else {
          outcome = { kind: "ended" };
        }
        end(outcome);
      },
    };
  }

  #emit<E extends keyof ChatModelEvents>(event: E, payload: Parameters<ChatModelEvents[E]>[0]): void {
    const emitter = this.#emitter;
    if (!emitter?.listens(event)) return;
    (emitter.emit as (event: E, payload: unknown) => boolean)(event, payload);
  }
}

function refOf(model: ChatModelLike): ModelRef {
  return { providerId: model.providerId, modelId: model.modelId };
}

function describe(model: ChatModelLike): string {
  return `${model.providerId} ${model.modelId}`;
}

function reasonOf(error: unknown): string {
  const { reason, statusCode } = error as { reason?: string; statusCode?: number };
  return `${reason ?? "failed"}${statusCode === undefined ? "" : ` ${statusCode}`}`;
}
