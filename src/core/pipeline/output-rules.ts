import type { ProviderTool } from "../input.js";
import type { Validator } from "../schema/validate.js";
import type { JSONSchema } from "../schema/json-schema.js";
import type { NormalizedToolChoice } from "../tool-choice/tool-choice-mode.js";
import type { ToolChoicePlan } from "../tool-choice/resolve-tool-choice.js";

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
  validators: ReadonlyMap<string, { tool: ProviderTool; validate: Validator }>;
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
