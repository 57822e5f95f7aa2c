import type { ChatModelErrorOptions } from "./chat-model-error.js";
import { ChatModelError } from "./chat-model-error.js";

const marker = "keelson.error.StructuredOutputError";
const symbol = Symbol.for(marker);

export interface StructuredOutputErrorOptions extends ChatModelErrorOptions {
  /** The model's text that did not parse or validate. */
  text: string;
  /** What was wrong, one line per problem. */
  issues: string[];
}

/** The model's structured output was not JSON, or did not match the schema. */
export class StructuredOutputError extends ChatModelError {
  private readonly [symbol] = true;
  readonly text: string;
  readonly issues: string[];

  constructor(message: string, options: StructuredOutputErrorOptions) {
    super(message, options);
    this.name = "StructuredOutputError";
    this.text = options.text;
    this.issues = options.issues;
  }

  static override isInstance(error: unknown): error is StructuredOutputError {
    return ChatModelError.hasMarker(error, marker);
  }
}
