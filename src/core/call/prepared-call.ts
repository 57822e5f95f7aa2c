import type { ChatModelInput, ChatModelParameters, ProviderResponseFormat, ProviderTool } from "../input.js";
import type { Message } from "../messages.js";
import type { JSONSchema } from "../schema/json-schema.js";
import type { ToolEntry } from "../schema/tool-index.js";
import type { Validator } from "../schema/validate.js";
import type { ToolChoicePlan } from "../tool-choice/resolve-tool-choice.js";
import type { NormalizedToolChoice } from "../tool-choice/tool-choice-mode.js";

// What a prepared call is: its settings, the rules its reply must meet, and its wire form
// (prepare-call.ts makes one; run-call.ts, read-reply.ts and the cache read it).

/** What a reply must satisfy, fixed when the call is prepared and checked after every attempt. */
export interface OutputRules {
  providerId: string;
  modelId: string;
  /** The class name, for copy-paste fixes in error messages. */
  modelClass: string;
  toolChoiceSupport: ReadonlySet<string>;
  choice: NormalizedToolChoice;
  plan: ToolChoicePlan;
  /** Validators of the tools this call may use, by name. */
  validators: ReadonlyMap<string, ToolEntry>;
  allowParallel: boolean;
  ignoreParallel: boolean;
  fixInvalidToolCalls: boolean;
  /** Recover tool calls written as text under toolChoice "auto" too. */
  recoverTextToolCallsOnAuto: boolean;
  fallbackTool: string | undefined;
  retryOnEmptyResponse: boolean;
  /** Set when the call asked for structured output (a schema or free JSON). */
  structure?: {
    validate: Validator | undefined;
    schema: JSONSchema | undefined;
    strict: boolean;
    /** The schema went on the wire as `{ item: <schema> }` (the provider wants an object root): the reply is unwrapped. */
    wrapped?: boolean;
  };
  /** Set when the structured output travels as a forced synthetic tool: its arguments are the object. */
  structureTool?: string;
}

/** A call after normalisation: the rung and wire form, the rules its reply must meet, and what the caller gave. */
export interface PreparedCall {
  input: ChatModelInput;
  /** The call's number in the process, which its events carry. */
  callId: number;
  messages: Message[];
  tools: readonly ProviderTool[];
  choice: NormalizedToolChoice;
  parallel: boolean;
  plan: ToolChoicePlan;
  rules: OutputRules;
  /** System instructions the base class adds (prompt rungs). */
  instructions: string[];
  /** The structured output the caller asked for, as it goes on the wire (when sent natively). */
  responseFormat: ProviderResponseFormat | undefined;
  parameters: ChatModelParameters;
  maxRetries: number;
  useCache: boolean;
  /** Whether keelson places prompt-cache breakpoints (`promptCache: "auto"`, the call's or the model's). */
  promptCache: boolean;
}
