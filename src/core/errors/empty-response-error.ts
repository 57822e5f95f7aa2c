import type { ChatModelErrorOptions } from "./chat-model-error.js";
import { ChatModelError } from "./chat-model-error.js";

const marker = "keelson.error.EmptyResponseError";
const symbol = Symbol.for(marker);

/** The model answered with no text, no tool call and no object (reasoning alone is empty). */
export class EmptyResponseError extends ChatModelError {
  private readonly [symbol] = true;

  constructor(message: string, options: ChatModelErrorOptions = {}) {
    super(message, options);
    this.name = "EmptyResponseError";
  }

  static override isInstance(error: unknown): error is EmptyResponseError {
    return ChatModelError.hasMarker(error, marker);
  }
}
