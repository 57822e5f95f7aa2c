import type { Message } from "../core/messages.js";
import type { JSONSchema } from "../core/schema/json-schema.js";

/** One expected tool call: the tool's name, and arguments the call must contain (a subset match). */
export interface ExpectedToolCall {
  name: string;
  /** Arguments the call must have; extra arguments are fine. Objects match as subsets, arrays element by element. @default any arguments */
  args?: Record<string, unknown>;
}

/** What a right answer looks like. Without one, a valid reply (validated tool calls, or text) is a success. */
export interface EvalExpectation {
  /** The calls the reply must make, in any order, no more and no fewer (`[]`: no tool call). */
  toolCalls?: ExpectedToolCall[];
  /** Text the reply must contain (case-insensitive), with no tool call. */
  text?: { includes?: string[] };
  /** The object the reply must contain (a subset match on `output.object`, or on the reply's text read as JSON). */
  object?: Record<string, unknown>;
}

/** A tool as a case file gives it: JSON Schema parameters (the OpenAI `{ type: "function", function }` form is read too). */
export interface EvalTool {
  name: string;
  description?: string;
  parameters: JSONSchema;
}

/** One case: a conversation, the tools on offer, and what a right answer is. */
export interface EvalCase {
  /** How the report names the case. @default the file name without `.json` (or `case-<n>` in a list) */
  name: string;
  messages: Message[];
  tools: EvalTool[];
  /** `"auto"`, `"none"`, `"required"`, or one tool (`{ type: "tool", name }` or the tool's name). @default "auto" */
  toolChoice?: "auto" | "none" | "required" | { type: "tool"; name: string };
  /** Several tool calls allowed in one reply. @default true when `expect.toolCalls` has more than one call */
  parallelToolCalls?: boolean;
  /** A JSON Schema the final answer must match (it then arrives as `output.object`). @default none */
  responseFormat?: JSONSchema;
  expect?: EvalExpectation;
  /** The file the case was read from. */
  source?: string;
}
