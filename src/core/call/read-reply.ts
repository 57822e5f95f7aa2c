import { EmptyResponseError } from "../errors/empty-response-error.js";
import { StructuredOutputError } from "../errors/structured-output-error.js";
import type { AssistantContentPart, ReasoningPart, ToolCall } from "../messages.js";
import { messageText, messageToolCalls } from "../messages.js";
import type { Attempt, ChatModelOutput, ModelRef, ProviderOutput, ProviderToolCall, Repair } from "../output.js";
import { reasoningBlocksOf } from "../stream/reasoning-deltas.js";
import { dropNullOptionals } from "../tool-choice/drop-null-optionals.js";
import { unwrapItem } from "../tool-choice/tool-union-schema.js";
import { parseJSONValue } from "../tool-calls/parse-json-value.js";
import { preview } from "../tool-calls/parse-tool-arguments.js";
import { normalizeUsage, sumUsage } from "../usage.js";
import { checkToolChoice } from "./check-tool-choice.js";
import { recordSchemaInput, schemaInputOf } from "../schema/kept-schema-inputs.js";
import type { OutputRules, PreparedCall } from "./prepared-call.js";
import { readUnionReply, recoverFromText, shouldRecover, textCallHint } from "./read-text-tool-calls.js";
import {
  completedAtCutOff,
  cutOffAdvice,
  finalizeToolCall,
  toolCallError,
  uniqueToolCallIds,
} from "./read-tool-calls.js";

/** The caller's output but for `meta`, which the attempt loop adds to this same object. */
export type FinalOutput = Omit<ChatModelOutput, "meta"> & { meta: ChatModelOutput["meta"] | undefined };

/**
 * Turns what an adapter returned into the caller's output: tool calls read back from a tool union,
 * recovered from text, given ids, repaired, validated against their schemas and against tool_choice;
 * structured output parsed and validated. Throws ToolCallError, StructuredOutputError or
 * EmptyResponseError for the repair loop to re-ask. What was repaired on the way goes into `repairs`.
 */
export function finalizeOutput(raw: ProviderOutput, rules: OutputRules, repairs: Repair[]): FinalOutput {
  let text = raw.text ?? (raw.message ? messageText(raw.message) : "");
  const reasoning = raw.reasoning ?? "";
  let rawCalls: ProviderToolCall[] = raw.toolCalls ?? (raw.message ? messageToolCalls(raw.message) : []);

  // Empty is empty whatever was asked for: an empty reply to a forced call or a schema is no sign
  // that tool_choice was ignored or the format missed. A filtered reply is returned as it is only
  // where an answer without a call or an object is one (`auto`); elsewhere the caller gets the error.
  if (
    text === "" &&
    rawCalls.length === 0 &&
    rules.retryOnEmptyResponse &&
    (raw.finishReason !== "content-filter" || demandsAnswer(rules))
  ) {
    throw emptyResponse(raw, reasoning, rules);
  }
  // A reply the provider cut off at the token limit: JSON it left open is not completed by guessing.
  const cutOff = raw.finishReason === "length";

  if (rawCalls.length === 0 && (rules.plan.readsUnion || (text !== "" && shouldRecover(rules)))) {
    const read = rules.plan.readsUnion
      ? readUnionReply(text, rules, repairs, cutOff)
      : recoverFromText(text, rules, repairs, cutOff);
    if (read !== undefined) ({ calls: rawCalls, text } = read);
  }

  // map, not push: an array grown from [] by push is made room for 17 items.
  let toolCalls = uniqueToolCallIds(
    rawCalls.map((call) => finalizeToolCall(call, rules, repairs, cutOff)),
    repairs,
  );
  // The answer carried by a synthetic tool (or tool-union variant) is no tool call to the caller.
  const answer = rules.structureTool === undefined ? undefined : takeAnswer(toolCalls, rules.structureTool, rules);
  if (answer === undefined) toolCalls = checkToolChoice(toolCalls, text, rules, repairs);

  let object: unknown;
  let input: unknown;
  if (answer !== undefined) {
    object = answer.args;
    input = schemaInputOf(answer, object);
    text = JSON.stringify(object);
    toolCalls = [];
  } else if (rules.structure && toolCalls.length === 0) {
    ({ input, object } = parseStructure(text, rules, repairs, cutOff));
    // The wire's `{ item }` is no text of the caller's: the text is the object's JSON.
    if (rules.structure.wrapped) text = JSON.stringify(object);
  }

  // A forced call read from text ends "stop" on the wire; to the caller it is a tool call.
  const reported = raw.finishReason ?? "stop";
  // A structured answer carried by a forced tool is no tool call to the caller: it ends "stop".
  const finishReason =
    toolCalls.length > 0 && reported === "stop"
      ? "tool-calls"
      : answer !== undefined && reported === "tool-calls"
        ? "stop"
        : reported;
  const message: ChatModelOutput["message"] = {
    role: "assistant",
    content: messageContent(text, reasoningBlocksOf(raw), toolCalls),
  };
  // `meta` is the attempt loop's to fill; its slot is made here, so filling it adds no property.
  const final: FinalOutput = {
    message,
    text,
    toolCalls,
    reasoning,
    finishReason,
    usage: normalizeUsage(raw.usage),
    raw: raw.raw,
    meta: undefined,
  };
  if (object !== undefined) final.object = object;
  // A schema that made a new object (zod's transforms) is checked on its input when the answer is read from a cache.
  if (input !== object) recordSchemaInput(final, input);
  return final;
}

/**
 * The call to the answer's synthetic tool, when the reply made one: it must be the reply's only
 * call (a reply with tool calls and the final answer asks for two things at once, and is re-asked).
 */
function takeAnswer(toolCalls: ToolCall[], name: string, rules: OutputRules): ToolCall | undefined {
  const answer = toolCalls.find((call) => call.name === name);
  if (answer === undefined || toolCalls.length === 1) return answer;
  throw toolCallError(
    rules,
    "tool-choice-violation",
    `call tools, or give the final answer with '${name}', not both in one reply; the reply called ${toolCalls.map((call) => call.name).join(", ")}.`,
    JSON.stringify(toolCalls.map((call) => ({ name: call.name, arguments: call.args }))),
    name,
  );
}

function emptyResponse(raw: ProviderOutput, reasoning: string, rules: OutputRules): EmptyResponseError {
  return new EmptyResponseError(
    `${rules.providerId} ${rules.modelId} returned an empty response (no text and no tool call` +
      `${reasoning ? ", only reasoning" : ""}, finish reason '${raw.finishReason ?? "unknown"}').${emptyAdvice(raw, reasoning)}`,
    { providerId: rules.providerId, modelId: rules.modelId },
  );
}

function emptyAdvice(raw: ProviderOutput, reasoning: string): string {
  if (raw.finishReason === "length") {
    return reasoning
      ? " The reasoning used up the token limit: raise parameters.maxTokens or lower parameters.reasoningEffort."
      : " The reply hit the token limit: raise parameters.maxTokens.";
  }
  if (raw.finishReason === "content-filter")
    return " The provider's content filter stopped the reply: rephrase the input.";
  return "";
}

/** Whether the call wants more than text: a tool call it forces, or an object. */
function demandsAnswer(rules: OutputRules): boolean {
  return rules.choice.mode === "required" || rules.choice.mode === "single" || rules.structure !== undefined;
}

/** An assistant message's content: plain text alone, else reasoning blocks (`reasoningBlocksOf`), text and tool calls as parts. */
export function messageContent(
  text: string,
  reasoningBlocks: readonly ReasoningPart[],
  toolCalls: ToolCall[],
): string | AssistantContentPart[] {
  if (reasoningBlocks.length === 0 && toolCalls.length === 0) return text;
  const head: AssistantContentPart[] = reasoningBlocks.map((part) => ({ ...part }));
  if (text !== "") head.push({ type: "text", text });
  // Copied, not pushed one by one: an array grown from [] by push is made room for 17 items.
  return head.length === 0 ? toolCalls.slice() : head.concat(toolCalls);
}

/**
 * A structured answer written as text: parsed (repaired), unwrapped from the wire's `{ item }`, nulls
 * of optional fields dropped, validated. `input` is what the schema was given, `object` what it made.
 */
function parseStructure(
  text: string,
  rules: OutputRules,
  repairs: Repair[],
  cutOff: boolean,
): { input: unknown; object: unknown } {
  const parsed = parseJSONValue(text);
  const fail = (issues: string[], advice = "") => {
    // A tool call written as text, which was not read as one: the model is told, the caller given the option.
    const hint = textCallHint(text, rules);
    if (hint) [issues, advice] = [[...issues, hint.issue], advice + hint.advice];
    return new StructuredOutputError(
      `${rules.providerId} ${rules.modelId} did not return the structured output asked for: ${issues.join("; ")}${advice}`,
      { text, issues, providerId: rules.providerId, modelId: rules.modelId },
    );
  };
  if (!parsed) throw fail([`the reply is not JSON: ${preview(text)}`]);
  if (completedAtCutOff(cutOff, parsed.repairs)) {
    throw fail(
      ["the reply was cut off at the token limit before its JSON was complete; send it again, complete and shorter"],
      `\n${cutOffAdvice}`,
    );
  }
  for (const kind of parsed.repairs) repairs.push({ kind, detail: `structured output: ${kind}` });
  const structure = rules.structure!;
  let value = parsed.value;
  if (structure.wrapped) value = unwrapItem(value);
  if (structure.strict && structure.schema) value = dropNullOptionals(value, structure.schema);
  if (!structure.validate) return { input: value, object: value };
  const result = structure.validate(value);
  if (!result.success) throw fail(result.issues);
  return { input: value, object: result.value };
}

/** The output of a stream a `newToken` listener stopped: what arrived, unvalidated, finish reason "other"; usage summed over the attempts. */
export function partialOutput(raw: ProviderOutput, call: PreparedCall, attempts: Attempt[]): ChatModelOutput {
  attempts.push(attemptOf({ ...raw, finishReason: "other" }));
  const text = raw.text ?? "";
  const reasoning = raw.reasoning ?? "";
  return {
    message: { role: "assistant", content: messageContent(text, reasoningBlocksOf(raw), []) },
    text,
    toolCalls: [],
    reasoning,
    finishReason: "other",
    // Every attempt was paid for, the re-asked ones too.
    usage: attempts.length > 1 ? sumUsage(attempts.map((attempt) => attempt.usage)) : attempts[0]!.usage,
    raw: raw.raw,
    meta: { toolChoice: call.plan.rung, repairs: [], attempts, cacheHit: false, model: modelOf(call) },
  };
}

/** One attempt's record; `usage` when the caller already normalised it. */
export function attemptOf(raw: ProviderOutput, rejected?: string, usage = normalizeUsage(raw.usage)): Attempt {
  const attempt: Attempt = { usage, finishReason: raw.finishReason ?? "other" };
  if (rejected !== undefined) attempt.rejected = rejected;
  return attempt;
}

/** The caller's output: the final attempt's content (the object itself), every attempt's usage summed. */
export function completeOutput(
  final: FinalOutput,
  repairs: Repair[],
  call: PreparedCall,
  attempts: Attempt[],
): ChatModelOutput {
  if (attempts.length > 1) final.usage = sumUsage(attempts.map((attempt) => attempt.usage));
  final.meta = { toolChoice: call.plan.rung, repairs, attempts, cacheHit: false, model: modelOf(call) };
  return final as ChatModelOutput;
}

/** The model that answers a call, for `meta.model`. */
export function modelOf(call: PreparedCall): ModelRef {
  return { providerId: call.rules.providerId, modelId: call.rules.modelId };
}
