import type { ChatModelLike } from "../core/model/chat-model-like.js";
import type { RunBudget } from "./run-budget.js";
import type { ChatModelInput, InferResponseFormatOutput, ResponseFormat, ToolChoice } from "../core/input.js";
import type { Message, ToolCall } from "../core/messages.js";
import type { ChatModelOutput } from "../core/output.js";
import type { AnyTool, ToolCallOf } from "../core/tool.js";
import type { Usage } from "../core/usage.js";
import type { Approvals, PendingApproval } from "./approvals.js";
import type { Plan } from "./plan-execute.js";
import type { PrepareStep } from "./prepare-step.js";
import type { RunEvent } from "./run-event.js";
import type { RunStep } from "./run-step.js";

/** What `authorize` is given beside the call. */
export interface AuthorizeContext {
  /** The run's signal. */
  signal: AbortSignal;
  /** The step the call belongs to (0 for the first model call). */
  stepIndex: number;
  /** The transcript so far, the step's assistant message last. Read it; do not change it. */
  messages: readonly Message[];
  /** The execution's id (`<runId>:step-<n>:call-<i>`), as `execute` will get it. */
  executionId: string;
}

/**
 * What `authorize` answers: `true` runs the tool; `"ask"` holds the call for a person's approval
 * (the run ends with `status: "awaiting-approval"`); `false` or a reason refuses the call, which is
 * sent back to the model as the tool's result.
 */
export type Authorization = boolean | "ask" | (string & {});

/** The model call fields a run passes on to every step as they are. */
export type RunCallOptions = Pick<
  ChatModelInput,
  "parameters" | "maxRetries" | "timeout" | "cache" | "providerOptions" | "parallelToolCalls" | "fallbackTool"
>;

/** The tool calls a run's tools can produce: a union discriminated by `name`. */
export type RunToolCall<Tools extends readonly AnyTool[]> = 0 extends 1 & Tools[number]
  ? ToolCall
  : ToolCallOf<Tools[number]>;

/** What `runTools` and `streamTools` take. */
export interface RunToolsOptions<
  F extends ResponseFormat | undefined = ResponseFormat | undefined,
  Tools extends readonly AnyTool[] = readonly AnyTool[],
> extends RunCallOptions {
  /** The model every step asks. */
  model: ChatModelLike;
  /** The conversation to start from, at least one message. Never mutated. A transcript that ends on an assistant turn whose calls are not all answered (a run that waits for approval) resumes there. */
  messages: Message[];
  /** The tools the model may call; each one's `execute` runs its calls. */
  tools: Tools;
  /** Each step's tool_choice. With `"required"` or one tool, give a tool without `execute` to end the run on. @default "auto" */
  toolChoice?: ToolChoice | undefined;
  /** The final answer's shape: the run ends on `run.object`, parsed and validated. @default none (a text answer) */
  responseFormat?: F | undefined;
  /** Model calls at most; past them the run rejects with `RunError` reason `max-steps`. @default 10 */
  maxSteps?: number | undefined;
  /**
   * What the run may spend (`maxCostUsd`, `maxTokens`): it stops with `RunError` reason `budget`
   * before a step predicted to go past it (see RunBudget). @default none
   */
  budget?: RunBudget | undefined;
  /** Tool executions of one step at once. @default 4 */
  concurrency?: number | undefined;
  /** Aborts the run: the model call or the tools in flight (their `context.signal`); the run rejects with `RunError` reason `aborted`. @default none */
  signal?: AbortSignal | undefined;
  /**
   * Runs before each execution: `true` runs the call, `"ask"` holds it for approval, `false` or a
   * reason refuses it (sent back as the tool's result, the tool not run). @default every call runs
   */
  authorize?:
    ((call: RunToolCall<Tools>, context: AuthorizeContext) => Authorization | PromiseLike<Authorization>) | undefined;
  /**
   * A tool that throws: `"send"` sends the error to the model as the tool's result (it can retry or
   * work around it); `"throw"` ends the run with `RunError` reason `tool-error` (`tool-output` for a
   * result that fails the tool's `outputSchema`). @default "send"
   */
  toolErrors?: "send" | "throw" | undefined;
  /** Called (and awaited) after each step, its tools run. An error it throws ends the run with that error. @default none */
  onStep?: ((step: RunStep<RunToolCall<Tools>>) => void | Promise<void>) | undefined;
  /**
   * Decisions on the calls a run left waiting (`run.pendingApprovals`), by tool call id: `true` runs
   * the call, `false` or a reason refuses it. A key that names no waiting call is a `TypeError`.
   * @default none
   */
  approvals?: Approvals | undefined;
  /**
   * The run's id, the first part of each `executionId`. Pass the waiting run's `run.runId` when
   * resuming it, so a call's `executionId` is the same in both. @default a new id (`run-…`)
   */
  runId?: string | undefined;
  /** Runs before each model call: changes that step's tool_choice, tools, messages or model. @default none */
  prepareStep?: PrepareStep<RunToolCall<Tools>> | undefined;
  /**
   * `"ask-execute"`: ask, execute the calls, ask again until an answer. `"plan-execute"`: ask for a plan
   * of calls first (`run.plan`), run them in order, then ask for the answer. @default "ask-execute"
   */
  strategy?: "ask-execute" | "plan-execute" | undefined;
  /** With `strategy: "plan-execute"`: ask for a new plan when a planned call fails. @default false */
  replan?: boolean | undefined;
  /** Told of the run's events as they happen (a listener that throws is ignored). @default none */
  onEvent?: ((event: RunEvent<RunToolCall<Tools>>) => void) | undefined;
}

/** The object a response format parses to: the schema's output type, else `unknown`. */
export type RunObject<F> = InferResponseFormatOutput<F>;

/** A run that ended on an answer (or on calls to tools without `execute`), or that waits for approval. */
export interface RunResult<T = unknown, Call extends ToolCall<string, unknown> = ToolCall> {
  /** `"awaiting-approval"`: calls wait in `pendingApprovals` (resume with `approvals`); else `"done"`. */
  status: "done" | "awaiting-approval";
  /** The run's id, the first part of each `executionId`. */
  runId: string;
  /** The whole transcript: the caller's messages, then each step's whole assistant message and its tool messages. Plain JSON: the whole state of a waiting run. */
  messages: Message[];
  /** The last model call's output (when a resumed run waits again before any model call: its held turn, with no usage). */
  output: ChatModelOutput<Call>;
  steps: RunStep<Call>[];
  /** The final answer's text. */
  text: string;
  /** With a `responseFormat`: the final answer, parsed and validated. */
  object: T | undefined;
  /**
   * Calls to tools without `execute` that ended the run, for the caller to handle (append one tool
   * message per call to continue). Empty when the model answered.
   */
  toolCalls: Call[];
  /** The calls waiting for a person's decision, when `status` is `"awaiting-approval"`. */
  pendingApprovals: PendingApproval<Call>[];
  /** With `strategy: "plan-execute"`: the plan the run followed (the last one, after a replan). */
  plan?: Plan<Call>;
  /** Every step's usage, summed. */
  usage: Usage;
}
