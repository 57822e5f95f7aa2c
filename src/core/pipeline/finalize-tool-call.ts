import { generateToolCallId } from "../../internal/generate-id.js";
import type { ToolCallError } from "../errors/tool-call-error.js";
import type { ProviderTool } from "../input.js";
import type { ToolCall } from "../messages.js";
import type { ProviderToolCall, Repair, RepairKind } from "../output.js";
import { dropNullOptionals } from "../tool-choice/drop-null-optionals.js";
import { matchToolName } from "../tool-calls/match-tool-name.js";
import { parseToolArguments } from "../tool-calls/parse-tool-arguments.js";
import { completedAtCutOff, cutOffCall } from "./cut-off.js";
import type { OutputRules } from "./output-rules.js";
import { toolCallError } from "./tool-call-error-for.js";
import { recordSchemaInput } from "./schema-input.js";

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
