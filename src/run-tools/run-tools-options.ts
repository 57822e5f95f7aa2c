import type { RunBudget } from "./run-budget.js";
import type { ChatModel } from "../core/model/chat-model.js";
import type { ChatModelInput, InferResponseFormatOutput, ResponseFormat, ToolChoice } from "../core/input.js";
import type { Message, ToolCall } from "../core/messages.js";
import type { ChatModelOutput } from "../core/output.js";
import type { Tool, ToolDefinition } from "../core/tool.js";
import type { Usage } from "../core/usage.js";
import type { RunStep } from "./run-step.js";

/** What `authorize` is given beside the call. */
export interface AuthorizeContext {
  /** The run's signal. */
  signal: AbortSignal;
  /** The step the call belongs to (0 for the first model call). */
  stepIndex: number;
  /** The transcript so far, the step's assistant message last. Read it; do not change it. */
  messages: readonly Message[];
}

/**
 * What `authorize` answers: `true` runs the tool; `false` or a reason refuses the call, which is
 * sent back to the model as the tool's result.
 */
export type Authorization = boolean | string;

/** The model call fields a run passes on to every step as they are. */
export type RunCallOptions = Pick<
  ChatModelInput,
  "parameters" | "maxRetries" | "timeout" | "cache" | "providerOptions" | "parallelToolCalls" | "fallbackTool"
>;

/** What `runTools` and `streamTools` take. */
export interface RunToolsOptions<
  F extends ResponseFormat | undefined = ResponseFormat | undefined,
> extends RunCallOptions {
  /** The model every step asks. */
  model: ChatModel;
  /** The conversation to start from, at least one message. Never mutated. */
  messages: Message[];
  /** The tools the model may call; each one's `execute` runs its calls. */
  tools: readonly (Tool | ToolDefinition)[];
  /** Each step's tool_choice. With `"required"` or one tool, give a tool without `execute` to end the run on. @default "auto" */
  toolChoice?: ToolChoice;
  /** The final answer's shape: the run ends on `run.object`, parsed and validated. @default none (a text answer) */
  responseFormat?: F;
  /** Model calls at most; past them the run rejects with `RunError` reason `max-steps`. @default 10 */
  maxSteps?: number;
  /**
   * What the run may spend (`maxCostUsd`, `maxTokens`): it stops with `RunError` reason `budget`
   * before a step predicted to go past it (see RunBudget). @default none
   */
  budget?: RunBudget;
  /** Tool executions of one step at once. @default 4 */
  concurrency?: number;
  /** Aborts the run: the model call or the tools in flight (their `context.signal`); the run rejects with `RunError` reason `aborted`. @default none */
  signal?: AbortSignal;
  /** Runs before each execution; a refusal is sent back as the tool's result, the tool not run. @default every call runs */
  authorize?: (call: ToolCall, context: AuthorizeContext) => Authorization | Promise<Authorization>;
  /**
   * A tool that throws: `"send"` sends the error to the model as the tool's result (it can retry or
   * work around it); `"throw"` ends the run with `RunError` reason `tool-error`. @default "send"
   */
  toolErrors?: "send" | "throw";
  /** Called (and awaited) after each step, its tools run. An error it throws ends the run with that error. @default none */
  onStep?: (step: RunStep) => void | Promise<void>;
}

/** The object a response format parses to: the schema's output type, else `unknown`. */
export type RunObject<F> = InferResponseFormatOutput<F>;

/** A run that ended on an answer (or on calls to tools without `execute`). */
export interface RunResult<T = unknown> {
  /** The whole transcript: the caller's messages, then each step's whole assistant message and its tool messages. */
  messages: Message[];
  /** The last model call's output. */
  output: ChatModelOutput;
  steps: RunStep[];
  /** The final answer's text. */
  text: string;
  /** With a `responseFormat`: the final answer, parsed and validated. */
  object: T | undefined;
  /**
   * Calls to tools without `execute` that ended the run, for the caller to handle (append one tool
   * message per call to continue). Empty when the model answered.
   */
  toolCalls: ToolCall[];
  /** Every step's usage, summed. */
  usage: Usage;
}
