import type { ChatModelErrorOptions } from "./chat-model-error.js";
import { ChatModelError } from "./chat-model-error.js";

const marker = "keelson.error.UnsupportedFeatureError";
const symbol = Symbol.for(marker);

export interface UnsupportedFeatureErrorOptions extends ChatModelErrorOptions {
  feature: string;
}

/** The call needs something the model cannot do and no fallback is allowed. Raised before any request. */
export class UnsupportedFeatureError extends ChatModelError {
  private readonly [symbol] = true;
  readonly feature: string;

  constructor(message: string, options: UnsupportedFeatureErrorOptions) {
    super(message, options);
    this.name = "UnsupportedFeatureError";
    this.feature = options.feature;
  }

  static override isInstance(error: unknown): error is UnsupportedFeatureError {
    return ChatModelError.hasMarker(error, marker);
  }
}
