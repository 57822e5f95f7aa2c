import type { ChatModelInput, ResponseFormat } from "../core/input.js";
import type { AssistantMessage, Message, ToolCall } from "../core/messages.js";
import type { ChatModelLike } from "../core/model/chat-model-like.js";
import type { ChatModelOutput } from "../core/output.js";
import type { JSONSchema } from "../core/schema/json-schema.js";
import { validatorFor } from "../core/schema/validate.js";
import { defineTool } from "../core/define-tool.js";
import type { Tool } from "../core/tool.js";
import { generateToolCallId } from "../internal/generate-id.js";
import type { PendingApproval } from "./approvals.js";
import type { RunEvent } from "./run-event.js";
import type { RunPart } from "./run-part.js";
import type { RunStep, StepOutcome, ToolResult } from "./run-step.js";

/** One planned call: what it is for, and the call (a tool's name and its arguments). */
export interface PlanStep<Call extends ToolCall<string, unknown> = ToolCall> {
  description: string;
  toolCall: Call extends unknown ? { name: Call["name"]; args: Call["args"] } : never;
}

/** The plan a `strategy: "plan-execute"` run asked for first: its reasoning and its calls, in order. */
export interface Plan<Call extends ToolCall<string, unknown> = ToolCall> {
  reasoning: string;
  steps: PlanStep<Call>[];
}

/** What a plan-execute run borrows from the loop. */
export interface PlanRun {
  model: ChatModelLike;
  tools: ReadonlyMap<string, Tool>;
  transcript: Message[];
  steps: RunStep[];
  maxSteps: number;
  replan: boolean;
  responseFormat: ResponseFormat | undefined;
  /** The call options every model call takes (and the run's signal). */
  callInput: Omit<ChatModelInput, "messages">;
  emit: ((event: RunEvent) => void) | undefined;
  callModel(model: ChatModelLike, input: ChatModelInput, stepIndex: number): AsyncGenerator<RunPart, ChatModelOutput>;
  runCalls(
    calls: readonly ToolCall[],
    stepIndex: number,
    turn: number,
    indexes: readonly number[],
    messages: readonly Message[],
  ): AsyncGenerator<RunPart, StepOutcome>;
  nextTurn(): number;
  /** The error for a run past its maxSteps model calls, or a plan that names what cannot run. */
  fail(reason: "max-steps" | "model-error", message: string): Error;
}

/** How a plan-execute run ended: on its answer, or waiting for approval (the plan kept). */
export interface PlanOutcome {
  output: ChatModelOutput;
  plan: Plan;
  waiting: PendingApproval[];
}

const planNote =
  "Before acting, write a plan: the tool calls that will answer the request, in the order to run them, " +
  "each with what it is for, and your reasoning. Plan only calls to the tools given, with their arguments; " +
  "their results come back before you answer.";

/**
 * Plan, then execute: the first call asks for a plan (through the ladder, its calls validated against
 * the tools); each planned call runs in order (`authorize` and approval apply), appended to the
 * transcript as an assistant turn and its result; a last call answers from them. With `replan`, a call
 * that fails asks for a new plan from what happened so far.
 */
export async function* planExecute(run: PlanRun): AsyncGenerator<RunPart, PlanOutcome, undefined> {
  const runnable = [...run.tools.values()].filter((tool) => typeof tool.execute === "function");
  if (runnable.length === 0) throw new TypeError('strategy "plan-execute" needs at least one tool with execute.');
  const schema = planSchema(runnable);
  let stepIndex = 0;
  let plan: Plan;
  const budget = () => {
    if (stepIndex >= run.maxSteps) {
      throw run.fail(
        "max-steps",
        `The run made ${run.maxSteps} model calls without answering (maxSteps: ${run.maxSteps}). Raise maxSteps.`,
      );
    }
  };
  for (;;) {
    budget();
    const started = performance.now();
    const asked = yield* run.callModel(
      run.model,
      {
        ...run.callInput,
        messages: [...run.transcript, { role: "system", content: planNote }],
        responseFormat: { type: "json-schema", schema, name: "plan" },
      },
      stepIndex,
    );
    plan = readPlan(asked.object, run);
    const results: ToolResult[] = [];
    let failed = false;
    for (let index = 0; index < plan.steps.length; index++) {
      const planned = plan.steps[index]!;
      const call: ToolCall = {
        type: "tool-call",
        id: generateToolCallId(),
        name: planned.toolCall.name,
        args: planned.toolCall.args as Record<string, unknown>,
      };
      const text =
        index === 0
          ? `Plan: ${plan.reasoning}\nStep 1: ${planned.description}`
          : `Step ${index + 1}: ${planned.description}`;
      const message: AssistantMessage = { role: "assistant", content: [{ type: "text", text }, call] };
      const outcome = yield* run.runCalls([call], stepIndex, run.nextTurn(), [0], [...run.transcript, message]);
      run.transcript.push(message);
      if (outcome.pending) {
        finishStep(run, stepIndex, asked, results, started);
        return { output: asked, plan, waiting: outcome.pending };
      }
      const result = outcome.results[0]!;
      run.transcript.push(result.message);
      results.push(result);
      if (result.error !== undefined && run.replan) {
        failed = true;
        break;
      }
    }
    finishStep(run, stepIndex, asked, results, started);
    stepIndex++;
    if (!failed) break;
  }
  budget();
  const started = performance.now();
  const output = yield* run.callModel(
    run.model,
    {
      ...run.callInput,
      messages: run.transcript.slice(),
      tools: runnable,
      toolChoice: "none",
      ...(run.responseFormat === undefined ? {} : { responseFormat: run.responseFormat }),
    },
    stepIndex,
  );
  run.transcript.push(output.message);
  finishStep(run, stepIndex, output, [], started);
  return { output, plan, waiting: [] };
}

function finishStep(
  run: PlanRun,
  stepIndex: number,
  output: ChatModelOutput,
  toolResults: ToolResult[],
  started: number,
) {
  const step: RunStep = {
    stepIndex,
    output,
    toolResults,
    usage: output.usage,
    durationMs: performance.now() - started,
  };
  run.steps.push(step);
  run.emit?.({ type: "step-finish", step: stepIndex, runStep: step });
}

/** The plan's JSON Schema: its reasoning and its steps, each call one of the tools with that tool's arguments. */
function planSchema(tools: readonly Tool[]): JSONSchema {
  const calls = tools.map((tool) => ({
    type: "object",
    properties: { name: { type: "string", const: tool.name }, args: defineTool(tool).parameters },
    required: ["name", "args"],
    additionalProperties: false,
  }));
  return {
    type: "object",
    properties: {
      reasoning: { type: "string" },
      steps: {
        type: "array",
        items: {
          type: "object",
          properties: { description: { type: "string" }, toolCall: calls.length === 1 ? calls[0]! : { anyOf: calls } },
          required: ["description", "toolCall"],
          additionalProperties: false,
        },
      },
    },
    required: ["reasoning", "steps"],
    additionalProperties: false,
  } as JSONSchema;
}

/** The plan as the model wrote it (its shape checked by the call), each call's arguments checked against its tool's own schema. */
function readPlan(object: unknown, run: PlanRun): Plan {
  const plan = object as Plan;
  for (const [index, step] of plan.steps.entries()) {
    const tool = run.tools.get(step.toolCall.name);
    const checked = tool && validatorFor(tool.inputSchema)(step.toolCall.args);
    if (!checked || !checked.success) {
      const issues = checked && !checked.success ? checked.issues.join("; ") : "no such tool";
      throw run.fail(
        "model-error",
        `The plan's step ${index + 1} calls '${step.toolCall.name}' with arguments that do not fit (${issues}).`,
      );
    }
  }
  return plan;
}
