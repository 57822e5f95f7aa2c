import type { ChatModelInput, ChatModelParameters } from "../input.js";
import type { Message } from "../messages.js";
import type { ToolChoiceCapabilities } from "../tool-choice/resolve-tool-choice.js";
import type { CallShape } from "./call-shape.js";
import type { CallShapes } from "./call-shapes.js";
import { validateInput } from "./validate-input.js";
import { indexTools } from "./tool-index.js";

/**
 * The model's settings a call is prepared with: the model itself (a ChatModel has them all), read
 * when the call is prepared; what the attempts need later is copied into the call's rules then.
 */
export interface CallSettings extends ToolChoiceCapabilities {
  allowParallelToolCalls: boolean;
  ignoreParallelToolCalls: boolean;
  fixInvalidToolCalls: boolean;
  recoverTextToolCallsOnAuto: boolean;
  retryOnEmptyResponse: boolean;
  readonly retry: { readonly maxRetries: number };
  parameters: ChatModelParameters | undefined;
}

/** A call after normalisation: its shape (shared with the calls that repeat it) and what is its own. */
export interface PreparedCall extends Readonly<CallShape> {
  input: ChatModelInput;
  /** The call's number in the process, which its events carry. */
  callId: number;
  messages: Message[];
  parameters: ChatModelParameters;
  maxRetries: number;
  useCache: boolean;
}

/**
 * `shapes` are the model's call shapes (the last one reused while a call repeats it); `modelClass`
 * is the model's class name, for copy-paste fixes in error messages (a model's calls read it once).
 */
export function prepareCall(
  input: ChatModelInput,
  callId: number,
  settings: CallSettings,
  shapes: CallShapes,
  modelClass: string,
): PreparedCall {
  validateInput(input);
  const shape = shapes.shape(input, indexTools(input.tools), settings, modelClass);
  return {
    input,
    callId,
    messages: input.messages.slice(),
    tools: shape.tools,
    choice: shape.choice,
    parallel: shape.parallel,
    plan: shape.plan,
    rules: shape.rules,
    instructions: shape.instructions,
    responseFormat: shape.responseFormat,
    parameters: mergeParameters(settings.parameters, input.parameters),
    maxRetries: input.maxRetries ?? settings.retry.maxRetries,
    useCache: input.cache !== false,
  };
}

/** The model's default parameters under the call's own; a new object either way (adapters get their own). */
function mergeParameters(
  defaults: ChatModelParameters | undefined,
  given: ChatModelParameters | undefined,
): ChatModelParameters {
  if (defaults === undefined) return given === undefined ? {} : { ...given };
  return given === undefined ? { ...defaults } : { ...defaults, ...given };
}
