import type { ChatModelOutput } from "../core/output.js";
import type { EvalExpectation, ExpectedToolCall } from "./eval-case.js";

/** Why `output` is not the answer `expectation` describes, or undefined when it is. */
export function checkExpectation(
  output: ChatModelOutput,
  expectation: EvalExpectation | undefined,
): string | undefined {
  if (expectation === undefined) {
    // keelson has validated any tool calls; an empty reply would have been an EmptyResponseError.
    return output.toolCalls.length > 0 || output.text.trim() !== "" || output.object !== undefined
      ? undefined
      : "the reply is empty";
  }
  const got = describeReply(output);
  if (expectation.noToolCall === true && output.toolCalls.length > 0) return `expected no tool call; got ${got}`;
  if (expectation.toolCalls !== undefined) {
    const problem = matchToolCalls(expectation.toolCalls, output);
    if (problem !== undefined) return `${problem}; got ${got}`;
  }
  if (expectation.text !== undefined) {
    if (output.toolCalls.length > 0) return `expected a text answer; got ${got}`;
    const text = output.text.toLowerCase();
    const missing = (expectation.text.includes ?? []).filter((part) => !text.includes(part.toLowerCase()));
    if (missing.length > 0)
      return `the answer lacks ${missing.map((part) => JSON.stringify(part)).join(", ")}; got ${got}`;
  }
  if (expectation.object !== undefined) {
    const object = output.object ?? parsedText(output.text);
    const mismatch = object === undefined ? "" : subsetMismatch(expectation.object, object, "object");
    if (object === undefined) return `expected an object; got ${got}`;
    if (mismatch !== undefined) return `${mismatch}; got ${JSON.stringify(object)}`;
  }
  return undefined;
}

function matchToolCalls(expected: ExpectedToolCall[], output: ChatModelOutput): string | undefined {
  const calls = output.toolCalls;
  if (expected.length === 0) return calls.length === 0 ? undefined : "expected no tool call";
  if (calls.length !== expected.length) {
    return `expected ${expected.length} tool call(s) (${expected.map((call) => call.name).join(", ")})`;
  }
  const unused = [...calls];
  for (const want of expected) {
    const sameName = unused.filter((call) => call.name === want.name);
    if (sameName.length === 0) return `expected a call of ${want.name}`;
    const index = sameName.findIndex((call) => subsetMismatch(want.args ?? {}, call.args, "args") === undefined);
    if (index === -1) return `${want.name}: ${subsetMismatch(want.args ?? {}, sameName[0]!.args, "args")}`;
    unused.splice(unused.indexOf(sameName[index]!), 1);
  }
  return undefined;
}

/** Where `actual` differs from `expected` (every key of an object expected, arrays element by element). */
export function subsetMismatch(expected: unknown, actual: unknown, path: string): string | undefined {
  if (Array.isArray(expected)) {
    if (!Array.isArray(actual) || actual.length !== expected.length) {
      return `${path} should be a list of ${expected.length}, is ${JSON.stringify(actual)}`;
    }
    for (const [index, item] of expected.entries()) {
      const problem = subsetMismatch(item, actual[index], `${path}[${index}]`);
      if (problem !== undefined) return problem;
    }
    return undefined;
  }
  if (typeof expected === "object" && expected !== null) {
    if (typeof actual !== "object" || actual === null || Array.isArray(actual)) {
      return `${path} should be an object, is ${JSON.stringify(actual)}`;
    }
    for (const [key, value] of Object.entries(expected)) {
      const problem = subsetMismatch(value, (actual as Record<string, unknown>)[key], `${path}.${key}`);
      if (problem !== undefined) return problem;
    }
    return undefined;
  }
  return Object.is(expected, actual)
    ? undefined
    : `${path} should be ${JSON.stringify(expected)}, is ${JSON.stringify(actual)}`;
}

function parsedText(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return undefined;
  }
}

/** The reply, short, for a failure reason. */
export function describeReply(output: ChatModelOutput): string {
  if (output.toolCalls.length > 0) {
    return output.toolCalls.map((call) => `${call.name}(${JSON.stringify(call.args)})`).join(", ");
  }
  const text = output.text.trim();
  return text === ""
    ? "an empty reply"
    : `text ${JSON.stringify(text.length > 120 ? `${text.slice(0, 117)}...` : text)}`;
}
