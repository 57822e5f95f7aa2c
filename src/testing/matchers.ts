import type { ChatModelOutput } from "../core/output.js";
import type { ToolCall } from "../core/messages.js";

interface MatcherContext {
  equals(actual: unknown, expected: unknown): boolean;
  isNot: boolean;
  utils?: {
    printReceived(value: unknown): string;
    printExpected(value: unknown): string;
    stringify?(value: unknown): string;
  };
}

interface MatcherResult {
  pass: boolean;
  message(): string;
}

/** What `expect(output)` gains from `expect.extend(keelsonMatchers)`. */
export interface KeelsonMatchers<R = unknown> {
  /**
   * The output (or assistant message) calls `name`, with arguments that contain `args` when given:
   * a subset match, as eval's `expect.toolCalls[].args` (objects by key, at any depth; arrays element
   * by element; extra arguments are fine; asymmetric matchers work). For exact arguments, use
   * `toEqual` on `output.toolCalls`.
   */
  toHaveToolCall(name: string, args?: Record<string, unknown>): R;
  /** The output's text equals `text`, or matches it when a RegExp. */
  toHaveText(text: string | RegExp): R;
}

/**
 * Matchers for agent tests, for vitest or jest: `expect.extend(keelsonMatchers)`. keelson/testing
 * never imports a test framework; for vitest's types add
 * `declare module "vitest" { interface Assertion<T> extends KeelsonMatchers<T> {} }`.
 */
export const keelsonMatchers = {
  toHaveToolCall(this: MatcherContext, received: unknown, name: string, args?: Record<string, unknown>): MatcherResult {
    const calls = toolCallsOf(received);
    const pass = calls.some((call) => call.name === name && (args === undefined || contains(this, call.args, args)));
    // The framework's printer shows asymmetric matchers as written (StringMatching /^INC-/); JSON would not.
    const show = (value: unknown) => (this.utils?.stringify ? this.utils.stringify(value) : JSON.stringify(value));
    const wanted = `call to '${name}'${args === undefined ? "" : ` with arguments containing ${show(args)}`}`;
    const seen = calls.length ? calls.map((call) => `${call.name}(${show(call.args)})`).join(", ") : "no tool calls";
    return { pass, message: () => `expected ${this.isNot ? "no" : "a"} ${wanted}; the output has ${seen}` };
  },

  toHaveText(this: MatcherContext, received: unknown, text: string | RegExp): MatcherResult {
    const actual = textOf(received);
    const pass = typeof text === "string" ? actual === text : text.test(actual);
    return {
      pass,
      message: () =>
        `expected the output text ${this.isNot ? "not " : ""}to ${typeof text === "string" ? "be" : "match"} ${String(text)}; it is ${JSON.stringify(actual)}`,
    };
  },
};

/** Whether `actual` holds `expected`: plain objects by key (extra keys fine), arrays element by element, the rest by `equals`. */
function contains(context: MatcherContext, actual: unknown, expected: unknown): boolean {
  if (Array.isArray(expected)) {
    return (
      Array.isArray(actual) &&
      actual.length === expected.length &&
      expected.every((item, index) => contains(context, actual[index], item))
    );
  }
  if (isPlainObject(expected)) {
    if (!isPlainObject(actual)) return false;
    return Object.keys(expected).every(
      (key) => Object.hasOwn(actual, key) && contains(context, actual[key], expected[key]),
    );
  }
  return context.equals(actual, expected);
}

/** A plain object (an asymmetric matcher, with its own prototype, is left to `equals`). */
function isPlainObject(value: unknown): value is Record<string, unknown> {
  if (typeof value !== "object" || value === null) return false;
  const proto = Object.getPrototypeOf(value) as unknown;
  return proto === Object.prototype || proto === null;
}

function toolCallsOf(received: unknown): ToolCall[] {
  const value = received as Partial<ChatModelOutput> & { content?: unknown };
  if (Array.isArray(value?.toolCalls)) return value.toolCalls;
  if (Array.isArray(value?.content))
    return (value.content as { type: string }[]).filter((part): part is ToolCall => part.type === "tool-call");
  throw new TypeError("toHaveToolCall expects a ChatModelOutput or an assistant message.");
}

function textOf(received: unknown): string {
  const value = received as Partial<ChatModelOutput> & { content?: unknown };
  if (typeof value?.text === "string") return value.text;
  if (typeof value?.content === "string") return value.content;
  if (Array.isArray(value?.content)) {
    return (value.content as { type: string; text?: string }[])
      .filter((part) => part.type === "text")
      .map((part) => part.text)
      .join("");
  }
  throw new TypeError("toHaveText expects a ChatModelOutput or a message.");
}
