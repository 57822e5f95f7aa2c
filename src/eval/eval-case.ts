import type { Message } from "../core/messages.js";
import type { JSONSchema } from "../core/schema/json-schema.js";

/** One expected tool call: the tool's name, and arguments the call must contain (a subset match). */
export interface ExpectedToolCall {
  name: string;
  /** Arguments the call must have; extra arguments are fine. Objects match as subsets, arrays element by element. @default any arguments */
  args?: Record<string, unknown> | undefined;
}

/** What a right answer looks like. Without one, a valid reply (validated tool calls, or text) is a success. */
export interface EvalExpectation {
  /** The calls the reply must make, in any order, no more and no fewer (`[]`: no tool call). @default any */
  toolCalls?: ExpectedToolCall[] | undefined;
  /**
   * Restraint: the reply must call no tool (a text answer), though tools are on offer. The report
   * counts the runs that called one anyway (`row.restraint`). @default false
   */
  noToolCall?: boolean | undefined;
  /** Text the reply must contain (case-insensitive), with no tool call. */
  text?: { includes?: string[] | undefined } | undefined;
  /** The object the reply must contain (a subset match on `output.object`, or on the reply's text read as JSON). */
  object?: Record<string, unknown> | undefined;
}

/** A tool as a case file gives it: JSON Schema parameters (the OpenAI `{ type: "function", function }` form is read too). */
export interface EvalTool {
  name: string;
  description?: string | undefined;
  parameters: JSONSchema;
}

/** One case: a conversation, the tools on offer, and what a right answer is. */
export interface EvalCase {
  /** How the report names the case. @default the file name without `.json` (or `case-<n>` in a list) */
  name: string;
  messages: Message[];
  tools: EvalTool[];
  /** `"auto"`, `"none"`, `"required"`, or one tool (`{ type: "tool", name }` or the tool's name). @default "auto" */
  toolChoice?: "auto" | "none" | "required" | { type: "tool"; name: string } | undefined;
  /** Several tool calls allowed in one reply. @default true when `expect.toolCalls` has more than one call */
  parallelToolCalls?: boolean | undefined;
  /** A JSON Schema the final answer must match (it then arrives as `output.object`). @default none */
  responseFormat?: JSONSchema | undefined;
  expect?: EvalExpectation | undefined;
  /** The file the case was read from. */
  source?: string | undefined;
}
