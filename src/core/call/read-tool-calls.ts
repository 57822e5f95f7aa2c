import { generateToolCallId } from "../../internal/generate-id.js";
import { ToolCallError } from "../errors/tool-call-error.js";
import type { ProviderTool } from "../input.js";
import type { ToolCall } from "../messages.js";
import type { ProviderToolCall, Repair, RepairKind } from "../output.js";
import { dropNullOptionals } from "../tool-choice/drop-null-optionals.js";
import { matchToolName } from "../tool-calls/match-tool-name.js";
import { parseToolArguments } from "../tool-calls/parse-tool-arguments.js";
import { recordSchemaInput } from "../schema/kept-schema-inputs.js";
import type { OutputRules } from "./prepared-call.js";

/** One call made final: its tool known, its arguments parsed (repaired), validated and given an id. Failures are worded apart (the code run per call stays small). */
export function finalizeToolCall(
  call: ProviderToolCall,
  rules: OutputRules,
  repairs: Repair[],
  cutOff: boolean,
): ToolCall {
  let entry = rules.validators.get(call.name);
  if (entry === undefined) {
    call = repairedName(call, rules, repairs);
    entry = rules.validators.get(call.name)!;
  }
  const parsed = parseToolArguments(call.args, rules.fixInvalidToolCalls);
  if (!parsed.ok)
    throw toolCallError(rules, "invalid-args", `tool '${call.name}': ${parsed.problem}`, String(call.args), call.name);
  if (completedAtCutOff(cutOff, parsed.repairs))
    throw cutOffCall(rules, String(call.args), `the arguments of tool '${call.name}'`, call.name);
  if (parsed.repairs.length > 0) noteArgumentRepairs(call, parsed.repairs, repairs);
  const strictUnion = rules.plan.responseFormat?.type === "json-schema" && rules.plan.responseFormat.strict === true;
  const args =
    rules.structure?.strict || strictUnion
      ? (dropNullOptionals(parsed.args, entry.tool.parameters) as Record<string, unknown>)
      : parsed.args;
  const result = entry.validate(args);
  if (!result.success) throw argumentsMismatch(call, args, result.issues, entry.tool, rules);
  const id = call.id || missingId(call, repairs);
  const toolCall: ToolCall = { type: "tool-call", id, name: call.name, args: result.value as Record<string, unknown> };
  if (call.signature) toolCall.signature = call.signature;
  // A schema that made new arguments (zod's transforms) is checked on its input when the answer is read from a cache.
  if (result.value !== args) recordSchemaInput(toolCall, args);
  return toolCall;
}

/** The call with the name of the one tool it can mean (`Get_Weather` for `get_weather`), listed as a repair; else the unknown-tool error. */
function repairedName(call: ProviderToolCall, rules: OutputRules, repairs: Repair[]): ProviderToolCall {
  const match = matchToolName(call.name, rules.validators.keys());
  if (match === undefined || !("name" in match) || !rules.fixInvalidToolCalls)
    throw unknownTool(call, rules, match && "candidates" in match ? match.candidates : undefined);
  repairs.push({
    kind: "tool-name",
    detail: `read the call to '${call.name}' as '${match.name}'`,
    toolName: match.name,
  });
  return { ...call, name: match.name };
}

function unknownTool(call: ProviderToolCall, rules: OutputRules, candidates?: string[]): ToolCallError {
  // The tools this reply may call (the forced one alone, none under "none"), not every tool of the call.
  const known = rules.plan.allowedTools.map((tool) => tool.name);
  const which = candidates
    ? ` It could be ${candidates.map((name) => `'${name}'`).join(" or ")}: name one exactly.`
    : "";
  return toolCallError(
    rules,
    "unknown-tool",
    `there is no tool named ${JSON.stringify(call.name)}.${which} ${known.length ? `Available tools: ${known.join(", ")}.` : "No tools are available for this reply."}`,
    JSON.stringify({ name: call.name, arguments: call.args }),
    call.name,
  );
}

function noteArgumentRepairs(call: ProviderToolCall, kinds: readonly RepairKind[], repairs: Repair[]): void {
  for (const kind of kinds) {
    if (kind === "empty-args" && call.args !== "" && call.args != null) continue;
    repairs.push({ kind, detail: `arguments of '${call.name}': ${kind}`, toolName: call.name });
  }
}

function argumentsMismatch(
  call: ProviderToolCall,
  args: unknown,
  issues: string[],
  tool: ProviderTool,
  rules: OutputRules,
): ToolCallError {
  return toolCallError(
    rules,
    "invalid-args",
    `the arguments of tool '${call.name}' do not match its schema: ${issues.join("; ")}. The schema is ${JSON.stringify(tool.parameters)}.`,
    JSON.stringify(args),
    call.name,
  );
}

function missingId(call: ProviderToolCall, repairs: Repair[]): string {
  const id = generateToolCallId();
  repairs.push({ kind: "missing-id", detail: `gave the call to '${call.name}' the id ${id}`, toolName: call.name });
  return id;
}

/**
 * Whether JSON of a reply the provider cut off at the token limit (finish reason `length`) could be
 * read only by completing it: that would be a guess, so the reply is re-asked instead.
 */
export function completedAtCutOff(cutOff: boolean, repairs: readonly RepairKind[]): boolean {
  return cutOff && repairs.includes("json-repaired");
}

/** Arguments (or a tool call written as text) the token limit cut off: re-asked, and past the budget the caller is told to raise it. */
export function cutOffCall(rules: OutputRules, text: string, what: string, toolName?: string): ToolCallError {
  const error = toolCallError(
    rules,
    "invalid-args",
    `the reply was cut off at the token limit in the middle of ${what}. Send the complete call again, with shorter arguments if they were long.`,
    text,
    toolName,
  );
  error.message += `\n${cutOffAdvice}`;
  return error;
}

export const cutOffAdvice = "The reply hit the token limit (finish reason 'length'): raise parameters.maxTokens.";

/** A ToolCallError that names the model, with the feedback the re-ask sends to it. */
export function toolCallError(
  rules: OutputRules,
  kind: ToolCallError["kind"],
  feedback: string,
  text: string,
  toolName?: string,
): ToolCallError {
  return new ToolCallError(`${rules.providerId} ${rules.modelId}: ${feedback}`, {
    kind,
    feedback,
    text,
    toolName,
    providerId: rules.providerId,
    modelId: rules.modelId,
  });
}

/**
 * The reply's tool calls, each with an id of its own: a call whose id an earlier call of the same
 * reply already has gets a new one, listed in `repairs` (`duplicate-id`). Two tool messages with one
 * `toolCallId` make a transcript Anthropic and Bedrock refuse on the next request. The first call
 * keeps the id; the calls are new objects only where an id changed.
 */
export function uniqueToolCallIds(calls: ToolCall[], repairs: Repair[]): ToolCall[] {
  if (calls.length < 2) return calls;
  const taken = new Set<string>();
  return calls.map((call) => {
    if (!taken.has(call.id)) {
      taken.add(call.id);
      return call;
    }
    let id = generateToolCallId();
    while (taken.has(id)) id = generateToolCallId();
    taken.add(id);
    repairs.push({
      kind: "duplicate-id",
      detail: `gave the call to '${call.name}' the id ${id}: its id ${call.id} was already another call's in this reply`,
      toolName: call.name,
    });
    return { ...call, id };
  });
}
