import type { ToolChoice } from "../core/input.js";
import type { Message, ToolCall } from "../core/messages.js";
import { isChatModelLike, type ChatModelLike } from "../core/model/chat-model-like.js";
import type { Tool } from "../core/tool.js";
import type { RunStep } from "./run-step.js";
import { markTemporary } from "../core/prompt-cache/temporary-messages.js";

/** What `prepareStep` is given before a model call. */
export interface PrepareStepContext<Call extends ToolCall<string, unknown> = ToolCall> {
  /** The step about to run: 0, 1, … */
  step: number;
  /** The transcript so far (what the step sends unless `messages` replaces it). Read it; do not change it. */
  messages: readonly Message[];
  /** The steps so far. */
  steps: readonly RunStep<Call>[];
}

/** What `prepareStep` may change for one model call; each field left out keeps the run's. */
export interface StepSettings {
  /** This step's tool_choice. @default the run's */
  toolChoice?: ToolChoice | undefined;
  /** The names of the tools offered this step. @default every tool */
  activeTools?: readonly string[] | undefined;
  /** Tools not offered this step, with the reason: the model is told of them in a temporary system note. @default none */
  unavailableTools?: Readonly<Record<string, string>> | undefined;
  /** What this step sends instead of the transcript (a trimmed history); `run.messages` is not changed. @default the transcript */
  messages?: Message[] | undefined;
  /** The model this step asks. @default the run's */
  model?: ChatModelLike | undefined;
}

/** Runs before each model call; its answer changes that call only. */
export type PrepareStep<Call extends ToolCall<string, unknown> = ToolCall> = (
  context: PrepareStepContext<Call>,
) => StepSettings | undefined | void | PromiseLike<StepSettings | undefined | void>;

/** One step's model call as `prepareStep` left it. */
export interface PreparedStep {
  model: ChatModelLike;
  messages: Message[];
  tools: readonly Tool[];
  toolChoice: ToolChoice | undefined;
}

/**
 * Applies `prepareStep`'s answer to a step: the tools offered (`activeTools` less `unavailableTools`),
 * the messages sent (with the note naming the unavailable tools and why, last), the tool_choice and
 * the model. A name that is no tool of the run is a TypeError.
 */
export function applyStepSettings(
  settings: StepSettings | undefined | void,
  defaults: PreparedStep,
  tools: ReadonlyMap<string, Tool>,
): PreparedStep {
  if (settings === undefined || settings === null) return defaults;
  if (typeof settings !== "object")
    throw new TypeError(`prepareStep must return an object or undefined, got ${typeof settings}.`);
  const { activeTools, unavailableTools, messages, model, toolChoice } = settings;
  const known = (name: unknown, field: string) => {
    if (typeof name !== "string" || !tools.has(name)) {
      throw new TypeError(
        `prepareStep's ${field} names ${JSON.stringify(name)}, which is no tool of this run (its tools: ${[...tools.keys()].join(", ")}).`,
      );
    }
    return name;
  };
  let offered = defaults.tools;
  if (activeTools !== undefined) {
    if (!Array.isArray(activeTools)) throw new TypeError("prepareStep's activeTools must be an array of tool names.");
    const names = new Set(activeTools.map((name) => known(name, "activeTools")));
    offered = offered.filter((tool) => names.has(tool.name));
  }
  let note: Message | undefined;
  if (unavailableTools !== undefined) {
    if (unavailableTools === null || typeof unavailableTools !== "object") {
      throw new TypeError("prepareStep's unavailableTools must be an object { [toolName]: reason }.");
    }
    const entries = Object.entries(unavailableTools).map(([name, reason]) => [
      known(name, "unavailableTools"),
      String(reason),
    ]);
    const names = new Set(entries.map(([name]) => name));
    offered = offered.filter((tool) => !names.has(tool.name));
    if (entries.length > 0) {
      const lines = entries.map(([name, reason]) => `- ${name}: ${reason}`).join("\n");
      [note] = markTemporary({ role: "system", content: `These tools cannot be used at this step:\n${lines}` });
    }
  }
  if (messages !== undefined && (!Array.isArray(messages) || messages.length === 0)) {
    throw new TypeError("prepareStep's messages must be a non-empty array of messages (what this step sends).");
  }
  if (model !== undefined && !isChatModelLike(model)) {
    throw new TypeError("prepareStep's model must be a chat model (a ChatModel, createRouter, withFallbacks).");
  }
  const sent = messages === undefined ? defaults.messages : messages.slice();
  return {
    model: model ?? defaults.model,
    messages: note === undefined ? sent : [...sent, note],
    tools: offered,
    toolChoice: toolChoice === undefined ? defaults.toolChoice : toolChoice,
  };
}
