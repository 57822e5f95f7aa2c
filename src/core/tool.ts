import type { ToolCall, ToolResultPart } from "./messages.js";
import type { JSONSchema } from "./schema/json-schema.js";
import type { SchemaInput, ZodV3Like, ZodV4Like } from "./schema/schema-input.js";

// A tool's types: what `defineTool` (define-tool.ts) takes in each shape, what it gives back, and the
// tool calls a list of tools can produce.

/** The arguments of a tool whose schema says nothing more: any object. */
export type UntypedArgs = Record<string, unknown>;

/** The type of a tool's arguments from its schema: zod's output type, else `UntypedArgs`. */
export type InferToolArgs<S> = S extends { _zod: { output: infer O } }
  ? O
  : S extends { _output: infer O }
    ? O
    : UntypedArgs;

/** What a tool's `execute` gets beside its arguments. */
export interface ToolExecuteContext<Name extends string = string, Args = UntypedArgs> {
  /** The call's signal: aborted when the run is, or when the tool's `timeoutMs` passes. */
  signal: AbortSignal;
  /** The tool call being executed. */
  toolCall: ToolCall<Name, Args>;
  /**
   * This execution's id, `<runId>:step-<n>:call-<i>` (`n` counts the transcript's assistant turns, `i`
   * the call's place in its turn): the same when a run is resumed or retried with the same `runId`,
   * so a tool with side effects can use it as an idempotency key.
   */
  executionId: string;
}

/**
 * What `execute` may return instead of a value: text, image and file parts, sent to the model as the
 * tool's result (a screenshot, a chart, a generated file).
 */
export interface RichToolResult {
  content: ToolResultPart[];
}

/**
 * A tool's `execute`. Checked as a method is (bivariantly), so a tool with a literal name still
 * fits where any tool is taken.
 */
export type ToolExecute<Name extends string = string, Args = UntypedArgs, Output = unknown> = {
  bivariant(
    args: Args,
    context: ToolExecuteContext<Name, Args>,
  ): Output | RichToolResult | PromiseLike<Output | RichToolResult>;
}["bivariant"];

/** What `defineTool` takes. `Name` is kept as a literal type; `Args` is what `execute` and each call's `args` get. */
export interface ToolDefinition<Name extends string = string, Args = UntypedArgs, Output = unknown> extends ToolFields<
  Name,
  Args,
  Output
> {
  /** A zod v4 schema, a zod v3 schema, or a JSON Schema object for the tool's arguments. */
  inputSchema: SchemaInput;
}

/** A definition with a zod schema, whose argument type comes from the schema (and its result type from `outputSchema`'s). */
export interface ZodToolDefinition<
  Name extends string,
  S extends ZodV4Like | ZodV3Like,
  O extends SchemaInput | undefined = undefined,
> extends ToolFields<Name, InferToolArgs<S>, InferToolOutput<O>> {
  /** A zod v4 or zod v3 schema, or a JSON Schema, for what `execute` returns. @default none (not checked) */
  outputSchema?: O;
  /** A zod v4 or zod v3 schema for the tool's arguments. */
  inputSchema: S;
}

/** The type `execute` returns under an `outputSchema`: zod's output type, else `unknown`. */
export type InferToolOutput<O> = O extends { _zod: { output: infer T } }
  ? T
  : O extends { _output: infer T }
    ? T
    : unknown;

/**
 * A tool's `needsApproval` as a function of the call's arguments and context (typed as a method, so
 * a typed tool stays assignable to an untyped one, as with `execute`).
 */
export type ApprovalCheck<Name extends string, Args> = {
  bivarianceHack(args: Args, context: ToolExecuteContext<Name, Args>): boolean | PromiseLike<boolean>;
}["bivarianceHack"];

/** A tool's fields beside its schema. */
export interface ToolFields<Name extends string, Args, Output = unknown> {
  /** 1–64 characters of letters, digits, `_` and `-` (the rule every provider enforces). */
  name: Name;
  /** What the tool does, for the model. @default none */
  description?: string | undefined;
  /**
   * Runs the tool (what `runTools` calls), with the validated arguments. It returns the result (a
   * string as is, anything else as JSON), or `{ content: [text, image, file parts] }`. @default none
   */
  execute?: ToolExecute<Name, Args, Output> | undefined;
  /**
   * A schema (zod or JSON Schema) `execute`'s result must meet before it goes to the model: a result
   * that does not goes back as an error result naming the mismatch (with `toolErrors: "throw"`, the
   * run ends with `RunError` reason `tool-output`). @default none (not checked)
   */
  outputSchema?: SchemaInput | undefined;
  /**
   * Whether a call waits for a person's approval before it runs: `runTools` then ends with
   * `status: "awaiting-approval"` and resumes with `approvals`. @default false
   */
  needsApproval?: boolean | ApprovalCheck<Name, Args> | undefined;
  /**
   * How long `execute` may take, in milliseconds: past it, its signal aborts and the model is sent
   * an error result saying it timed out. @default none (no limit)
   */
  timeoutMs?: number | undefined;
}

/** A tool the model may call. Its JSON Schema is computed once, when the tool is defined. */
export interface Tool<Name extends string = string, Args = UntypedArgs> extends ToolDefinition<Name, Args> {
  /** The arguments' JSON Schema, as sent to the provider. */
  readonly parameters: JSONSchema;
  /** What the tool does, for the model (absent when none was given). */
  description?: string;
}

/**
 * A tool as tool listings write it: a JSON Schema under `parameters` (eval case files, MCP
 * listings, most SDKs). `defineTool` takes it as it is.
 */
export interface ParametersToolDefinition<Name extends string = string, Args = UntypedArgs> {
  /** 1–64 characters of letters, digits, `_` and `-`. */
  name: Name;
  /** What the tool does, for the model. @default none */
  description?: string | null | undefined;
  /** The arguments' JSON Schema (an object schema). */
  parameters: JSONSchema;
  /** Runs the tool (what `runTools` calls), with the validated arguments. @default none */
  execute?: ToolExecute<Name, Args> | undefined;
}

/**
 * OpenAI's function tool, `{ type: "function", function: { name, description?, parameters? } }`,
 * as the OpenAI SDK and its tool lists write it; `execute` (for `runTools`) sits beside `function`.
 */
export interface OpenAIFunctionToolDefinition<Name extends string = string, Args = UntypedArgs> {
  type: "function";
  function: {
    name: Name;
    description?: string | null | undefined;
    /** @default no arguments */
    parameters?: JSONSchema | undefined;
    /** OpenAI's strict mode flag; keelson validates every call whatever it says. */
    strict?: boolean | null | undefined;
  };
  /** Runs the tool (what `runTools` calls), with the validated arguments. @default none */
  execute?: ToolExecute<Name, Args> | undefined;
}

/** Any tool or tool definition, whatever its name and arguments: keelson's shape, `parameters`, or OpenAI's. */
export type AnyTool =
  | Tool<string, any>
  | ToolDefinition<string, any>
  | ParametersToolDefinition<string, any>
  | OpenAIFunctionToolDefinition<string, any>;

/**
 * The tool calls a list of tools can produce: a union discriminated by `name`, each with its tool's
 * argument type (`ToolCall` itself for tools that are not typed).
 */
export type ToolCallOf<T> =
  T extends ToolDefinition<infer Name, infer Args>
    ? string extends Name
      ? ToolCall<string, ArgsOf<T, Args>>
      : ToolCall<Name, ArgsOf<T, Args>>
    : T extends ParametersToolDefinition<infer Name, infer Args>
      ? ToolCall<Name, unknown extends Args ? UntypedArgs : Args>
      : T extends OpenAIFunctionToolDefinition<infer Name, infer Args>
        ? ToolCall<Name, unknown extends Args ? UntypedArgs : Args>
        : never;

/** A definition's argument type: from its zod schema when it has one, else from its type parameter. */
type ArgsOf<T, Args> = T extends { inputSchema: ZodV4Like | ZodV3Like }
  ? InferToolArgs<T["inputSchema"]>
  : unknown extends Args
    ? UntypedArgs
    : Args;
